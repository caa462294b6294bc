import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, seat } from '../helpers/cart-assertions';
import {
  CONCERT,
  CONCERT_2,
  TEMPEST,
  checkIn,
  keyWith,
  postCheckin,
  randomTicketCode,
  sameInstant,
  sellTickets,
  signedOf,
  type Checkin,
  type SignedOrder,
} from '../helpers/checkins-contract';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { expectError } from '../helpers/orders';
import { cancelOrder } from '../helpers/shifts-contract';

/**
 * Contract §15, POST /api/v3/checkins row by row: the first entry's answer (signed code and 20-character code,
 * general and seated), a second "in" (ALREADY_CHECKED_IN with when and where it went in), "out" then "in" again,
 * another show than the one named (TICKET_WRONG_OCCURRENCE with the ticket's show), a malformed code
 * (TICKET_INVALID), a code nobody sold (TICKET_NOT_FOUND) and a cancelled order's tickets (TICKET_CANCELLED).
 * Written from the contract and the shared design's wire format only.
 */

let engine: TestEngine;
let gate: string;
beforeAll(async () => {
  engine = await startTestEngine();
  gate = await keyWith(engine);
});
afterAll(async () => {
  await engine.close();
});

describe('§15 the first entry answers 201 { result: "admitted", ticket, at, gate }', () => {
  let order: SignedOrder;
  let first: Checkin;
  beforeAll(async () => {
    order = await sellTickets(engine, [concert(2)]);
    expect(order.tickets).toHaveLength(2);
  });

  it('by the signed code: the ticket names its 20-character code, event, show, start and area (no seat in a standing area)', async () => {
    const [ticket] = order.tickets;
    if (ticket === undefined) throw new Error('no ticket');
    first = await checkIn(engine, gate, { code: signedOf(ticket), gate: 'north' });
    expect(first.gate).toBe('north');
    expect(first.ticket).toMatchObject({ code: ticket.code, eventName: CONCERT.eventName, occurrenceId: CONCERT.occurrenceId, area: 'Standing' });
    sameInstant(first.ticket.startsAt, CONCERT.startsAt);
    expect(first.ticket.seat ?? undefined).toBeUndefined();
  });

  it('by the 20-character code, with the show named; a check-in without a gate is at the gate "main"', async () => {
    const ticket = order.tickets[1];
    if (ticket === undefined) throw new Error('no ticket');
    const answer = await checkIn(engine, gate, { code: ticket.code, occurrenceId: CONCERT.occurrenceId, direction: 'in' });
    expect(answer.gate).toBe('main');
    expect(answer.ticket).toMatchObject({ code: ticket.code, eventName: CONCERT.eventName, occurrenceId: CONCERT.occurrenceId, area: 'Standing' });
    sameInstant(answer.ticket.startsAt, CONCERT.startsAt);
  });

  it('a second "in" answers 409 ALREADY_CHECKED_IN with details.at and details.gate of the entry, by either code', async () => {
    const ticket = order.tickets[0];
    if (ticket === undefined) throw new Error('no ticket');
    for (const code of [ticket.code, signedOf(ticket)]) {
      const error = expectError(await postCheckin(engine, gate, { code, gate: 'south' }), 409, 'ALREADY_CHECKED_IN');
      sameInstant(error.details?.at, first.at);
      expect(error.details?.gate).toBe('north');
    }
  });

  it('"out" answers 201 (result "left"), then "in" again is admitted; a second "in" then names the re-entry', async () => {
    const ticket = order.tickets[0];
    if (ticket === undefined) throw new Error('no ticket');
    const out = await checkIn(engine, gate, { code: signedOf(ticket), direction: 'out', gate: 'south' }, 'left');
    expect(out.ticket.code).toBe(ticket.code);
    expect(out.gate).toBe('south');
    const again = await checkIn(engine, gate, { code: ticket.code, direction: 'in', gate: 'east' });
    expect(again.ticket.code).toBe(ticket.code);
    expect(Date.parse(again.at)).toBeGreaterThanOrEqual(Date.parse(first.at));
    const error = expectError(await postCheckin(engine, gate, { code: signedOf(ticket) }), 409, 'ALREADY_CHECKED_IN');
    sameInstant(error.details?.at, again.at);
    expect(error.details?.gate).toBe('east');
  });

  it('"out" for a ticket not inside answers 409 NOT_CHECKED_IN (the design\'s code) and changes nothing', async () => {
    const [fresh] = (await sellTickets(engine, [concert(1)])).tickets;
    if (fresh === undefined) throw new Error('no ticket');
    expectError(await postCheckin(engine, gate, { code: fresh.code, direction: 'out' }), 409, 'NOT_CHECKED_IN');
    await checkIn(engine, gate, { code: fresh.code });
  });

  it('a seated ticket carries its seat (the label) and its area, by either code', async () => {
    const seated = await sellTickets(engine, [seat('A1'), seat('A2')]);
    const [a1, a2] = seated.tickets;
    if (a1 === undefined || a2 === undefined) throw new Error('no tickets');
    const bySigned = await checkIn(engine, gate, { code: signedOf(a1), occurrenceId: TEMPEST.occurrenceId });
    const byCode = await checkIn(engine, gate, { code: a2.code });
    for (const [answer, ticket] of [[bySigned, a1], [byCode, a2]] as const) {
      expect(answer.ticket).toMatchObject({ code: ticket.code, eventName: TEMPEST.eventName, occurrenceId: TEMPEST.occurrenceId, area: 'Stalls' });
      sameInstant(answer.ticket.startsAt, TEMPEST.startsAt);
    }
    expect(bySigned.ticket.seat).toBe('Row A, Seat 1');
    expect(byCode.ticket.seat).toBe('Row A, Seat 2');
    if (a1.seat !== undefined) expect(bySigned.ticket.seat).toBe(a1.seat);
  });

  it('names the event and the area in the language asked for (Accept-Language: de)', async () => {
    const [other] = (await sellTickets(engine, [concert(1)])).tickets;
    if (other === undefined) throw new Error('no ticket');
    const response = await postCheckin(engine, gate, { code: signedOf(other) }, { 'accept-language': 'de' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect((response.body as { data: Checkin }).data.ticket).toMatchObject({ eventName: 'Midnight Brass — live im Konzert', area: 'Stehplatz' });
  });
});

describe('§15 the refusals of the table', () => {
  it('another show than occurrenceId answers 409 TICKET_WRONG_OCCURRENCE with the ticket\'s show, and admits nothing', async () => {
    const [ticket] = (await sellTickets(engine, [concert(1)])).tickets;
    if (ticket === undefined) throw new Error('no ticket');
    for (const code of [ticket.code, signedOf(ticket)]) {
      const error = expectError(await postCheckin(engine, gate, { code, occurrenceId: CONCERT_2.occurrenceId }), 409, 'TICKET_WRONG_OCCURRENCE');
      expect(error.details?.occurrenceId).toBe(CONCERT.occurrenceId);
      sameInstant(error.details?.startsAt, CONCERT.startsAt);
    }
    await checkIn(engine, gate, { code: signedOf(ticket), occurrenceId: CONCERT.occurrenceId });
  });

  it.each([
    ['plain garbage', 'hello world'],
    ['a K1 prefix and nothing else', 'K1.'],
    ['a K1 code of garbage parts', 'K1.bm90IGpzb24.AAAA.abcdefghijkl'],
    ['too few parts', 'K1.WyJhIl0.AAAA'],
    ['a 19-character code', 'ABCDEFGHJKMNPQRSTVW'],
  ])('%s answers 400 TICKET_INVALID (INVALID_REQUEST_ERROR, param code)', async (_label, code) => {
    expectError(await postCheckin(engine, gate, { code }), 400, 'TICKET_INVALID', 'code');
  });

  it('a 20-character code this engine never sold answers 404 TICKET_NOT_FOUND (NOT_FOUND_ERROR)', async () => {
    for (let i = 0; i < 3; i++) expectError(await postCheckin(engine, gate, { code: randomTicketCode() }), 404, 'TICKET_NOT_FOUND');
  });

  it('the tickets of a cancelled order answer 410 TICKET_CANCELLED (RESOURCE_GONE_ERROR), by either code, inside or not', async () => {
    const order = await sellTickets(engine, [concert(2)]);
    const [inside, outside] = order.tickets;
    if (inside === undefined || outside === undefined) throw new Error('no tickets');
    await checkIn(engine, gate, { code: inside.code });
    await cancelOrder(engine, order.id);
    for (const ticket of [inside, outside]) {
      expectError(await postCheckin(engine, gate, { code: ticket.code }), 410, 'TICKET_CANCELLED');
      expectError(await postCheckin(engine, gate, { code: signedOf(ticket) }), 410, 'TICKET_CANCELLED');
      expectError(await postCheckin(engine, gate, { code: signedOf(ticket), direction: 'out' }), 410, 'TICKET_CANCELLED');
    }
  });

  it('a 20-character code is read as people type it: lower case, with dashes (the design\'s normalising)', async () => {
    const [ticket] = (await sellTickets(engine, [concert(1)])).tickets;
    if (ticket === undefined) throw new Error('no ticket');
    const typed = ticket.code.toLowerCase().replace(/(.{5})(?!$)/g, '$1-');
    const answer = await checkIn(engine, gate, { code: typed });
    expect(answer.ticket.code).toBe(ticket.code);
  });
});
