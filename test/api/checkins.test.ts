import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { expectError, ISO_TIMESTAMP } from '../helpers/orders';
import { checkedIn, codeOf, concertOrder, countsOf, postCheckin, seatOrder } from '../helpers/checkins';

/**
 * Checking tickets at the door by their 20-character code (issue #26, contract §15): the first entry, every
 * refusal of the contract's table with its status, type, code and details, re-entry, names in the caller's
 * language, and the scope. Runs on both databases (startTestEngine).
 */

describe('check-in by the 20-character code', () => {
  let engine: TestEngine;
  let gate: string;
  beforeAll(async () => {
    engine = await startTestEngine();
    gate = await engine.createKey(['checkin']);
  });
  afterAll(() => engine.close());

  it('the first entry is 201 admitted with the ticket, its show, its area, the time and the gate', async () => {
    const order = await concertOrder(engine);
    const code = codeOf(order);
    const response = await postCheckin(engine, gate, { code, occurrenceId: 'brass-2027-03-12', gate: 'B' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.data).toEqual({
      result: 'admitted',
      ticket: { code, eventName: 'Midnight Brass — Live in Concert', occurrenceId: 'brass-2027-03-12', startsAt: order.event?.startsAt, area: 'Standing' },
      at: expect.stringMatching(ISO_TIMESTAMP) as string,
      gate: 'B',
    });
  });

  it('the gate defaults to "main", the direction to "in"; an assigned seat carries its label', async () => {
    const code = codeOf(await seatOrder(engine, 'A1'));
    const answer = await checkedIn(engine, gate, { code });
    expect(answer).toMatchObject({ result: 'admitted', gate: 'main', ticket: { code, area: 'Stalls', seat: 'Row A, Seat 1', occurrenceId: 'tempest-2027-04-02' } });
  });

  it('matches a code typed in lower case with spaces and hyphens, I and L as 1, O as 0; answers the code as issued', async () => {
    const order = await concertOrder(engine);
    const code = codeOf(order);
    const typed = `${code.slice(0, 5).toLowerCase()}-${code.slice(5, 10)} ${code.slice(10)}`.replace(/1/g, 'l').replace(/0/g, 'O');
    const answer = await checkedIn(engine, gate, { code: typed });
    expect(answer.ticket.code).toBe(code);
  });

  it('a second "in" without an "out" is 409 ALREADY_CHECKED_IN with when and where it went in', async () => {
    const code = codeOf(await concertOrder(engine));
    const first = await checkedIn(engine, gate, { code, gate: 'North' });
    const error = expectError(await postCheckin(engine, gate, { code, gate: 'South' }), 409, 'ALREADY_CHECKED_IN');
    expect(error.details).toEqual({ at: first.at, gate: 'North' });
  });

  it('out then in again: "left", then admitted again (re-entry); a second "out" is 409 NOT_CHECKED_IN', async () => {
    const code = codeOf(await concertOrder(engine));
    await checkedIn(engine, gate, { code });
    const out = await checkedIn(engine, gate, { code, direction: 'out', gate: 'East' });
    expect(out).toMatchObject({ result: 'left', gate: 'East', ticket: { code } });
    expectError(await postCheckin(engine, gate, { code, direction: 'out' }), 409, 'NOT_CHECKED_IN');
    const again = await checkedIn(engine, gate, { code, gate: 'West' });
    expect(again.result).toBe('admitted');
    const error = expectError(await postCheckin(engine, gate, { code }), 409, 'ALREADY_CHECKED_IN');
    expect(error.details).toEqual({ at: again.at, gate: 'West' });
  });

  it('"out" of a ticket never admitted is 409 NOT_CHECKED_IN', async () => {
    const code = codeOf(await concertOrder(engine));
    expectError(await postCheckin(engine, gate, { code, direction: 'out' }), 409, 'NOT_CHECKED_IN');
  });

  it('a well-formed code this engine did not sell is 404 TICKET_NOT_FOUND', async () => {
    expectError(await postCheckin(engine, gate, { code: 'ZZZZZZZZZZZZZZZZZZZZ' }), 404, 'TICKET_NOT_FOUND', 'code');
  });

  it.each([
    ['too short', 'ABC123'],
    ['21 characters', 'ZZZZZZZZZZZZZZZZZZZZZ'],
    ['a letter outside the alphabet (U)', 'UZZZZZZZZZZZZZZZZZZZ'],
    ['punctuation', 'ZZZZZZZZZZ.ZZZZZZZZZ'],
    ['a signed code that is not one', 'K1.abc.def.ghi'],
  ])('a malformed code (%s) is 400 TICKET_INVALID', async (_, code) => {
    expectError(await postCheckin(engine, gate, { code }), 400, 'TICKET_INVALID', 'code');
  });

  it('a ticket of a cancelled order is 410 TICKET_CANCELLED', async () => {
    const order = await concertOrder(engine);
    const cancel = await engine.request('POST', `/orders/${order.id}/cancel`, { key: engine.keys.admin });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expectError(await postCheckin(engine, gate, { code: codeOf(order) }), 410, 'TICKET_CANCELLED', 'code');
  });

  it('a ticket admitted and then cancelled cannot come back in', async () => {
    const order = await concertOrder(engine);
    const code = codeOf(order);
    await checkedIn(engine, gate, { code });
    await checkedIn(engine, gate, { code, direction: 'out' });
    expect((await engine.request('POST', `/orders/${order.id}/cancel`, { key: engine.keys.admin })).status).toBe(200);
    expectError(await postCheckin(engine, gate, { code }), 410, 'TICKET_CANCELLED');
  });

  it('a ticket of another show than occurrenceId is 409 TICKET_WRONG_OCCURRENCE with the ticket\'s show', async () => {
    const order = await concertOrder(engine);
    const error = expectError(await postCheckin(engine, gate, { code: codeOf(order), occurrenceId: 'brass-2027-03-13' }), 409, 'TICKET_WRONG_OCCURRENCE');
    expect(error.details).toEqual({ occurrenceId: 'brass-2027-03-12', startsAt: order.event?.startsAt });
    // refused, so nothing was stored: the ticket still goes in at its own show
    expect((await checkedIn(engine, gate, { code: codeOf(order), occurrenceId: 'brass-2027-03-12' })).result).toBe('admitted');
  });

  it('an occurrenceId the catalog does not have is 404 RESOURCE_NOT_FOUND (param occurrenceId)', async () => {
    const code = codeOf(await concertOrder(engine));
    expectError(await postCheckin(engine, gate, { code, occurrenceId: 'no-such-show' }), 404, 'RESOURCE_NOT_FOUND', 'occurrenceId');
  });

  it('names the event and the area in the caller\'s language; the codes and the refusals\' codes do not change', async () => {
    const code = codeOf(await concertOrder(engine));
    const de = await postCheckin(engine, gate, { code }, { 'accept-language': 'de' });
    expect(de.status).toBe(201);
    expect(de.body.data.ticket).toMatchObject({ code, eventName: 'Midnight Brass — live im Konzert', area: 'Stehplatz' });
    const fr = expectError(await postCheckin(engine, gate, { code }, { 'accept-language': 'fr' }), 409, 'ALREADY_CHECKED_IN');
    expect(fr.message).toMatch(/déjà entré/);
  });

  it('needs scope checkin: 403 INSUFFICIENT_PERMISSIONS with details.requiredScope, for both routes', async () => {
    const code = codeOf(await concertOrder(engine));
    const seller = await engine.createKey(['catalog:read', 'carts:write', 'orders:read', 'orders:write']);
    const denied = expectError(await postCheckin(engine, seller, { code }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(denied.details).toEqual({ requiredScope: 'checkin' });
    const counts = await engine.request('GET', '/occurrences/brass-2027-03-12/checkins', { key: seller });
    expect(expectError(counts, 403, 'INSUFFICIENT_PERMISSIONS').details).toEqual({ requiredScope: 'checkin' });
    // and was not checked in by the refused request
    expect((await checkedIn(engine, gate, { code })).result).toBe('admitted');
  });

  it('a key with checkin alone cannot sell: carts and orders are 403', async () => {
    const cart = await engine.request('POST', '/carts', { key: gate, body: { items: [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 }] } });
    expect(expectError(cart, 403, 'INSUFFICIENT_PERMISSIONS').details).toEqual({ requiredScope: 'carts:write' });
    const order = await engine.request('POST', '/orders', { key: gate, body: {}, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(order.status).toBe(403);
  });

  it('the counts of an unknown show are 404 RESOURCE_NOT_FOUND', async () => {
    expectError(await engine.request('GET', '/occurrences/no-such-show/checkins', { key: gate }), 404, 'RESOURCE_NOT_FOUND', 'id');
  });
});

describe('check-in counts', () => {
  let engine: TestEngine;
  let gate: string;
  beforeAll(async () => {
    engine = await startTestEngine();
    gate = await engine.createKey(['checkin']);
  });
  afterAll(() => engine.close());

  it('admitted, inside, capacity and sold after a mix of sales, a cancellation, entries, a refusal and an exit', async () => {
    const show = 'brass-2027-03-13';
    const before = await countsOf(engine, gate, show);
    expect(before).toEqual({ admitted: 0, inside: 0, capacity: 52, sold: 0 });
    const three = await concertOrder(engine, 3, show);
    const one = await concertOrder(engine, 1, show);
    const cancelled = await concertOrder(engine, 2, show);
    expect((await engine.request('POST', `/orders/${cancelled.id}/cancel`, { key: engine.keys.admin })).status).toBe(200);
    // another show's entry counts there, not here
    await checkedIn(engine, gate, { code: codeOf(await concertOrder(engine, 1)) });
    for (const index of [0, 1, 2]) await checkedIn(engine, gate, { code: codeOf(three, index), occurrenceId: show });
    expectError(await postCheckin(engine, gate, { code: codeOf(three, 0), occurrenceId: show }), 409, 'ALREADY_CHECKED_IN');
    expectError(await postCheckin(engine, gate, { code: codeOf(cancelled, 0) }), 410, 'TICKET_CANCELLED');
    await checkedIn(engine, gate, { code: codeOf(three, 1), direction: 'out' });
    expect(await countsOf(engine, gate, show)).toEqual({ admitted: 3, inside: 2, capacity: 52, sold: 4 });
    await checkedIn(engine, gate, { code: codeOf(one) });
    await checkedIn(engine, gate, { code: codeOf(three, 1) });
    expect(await countsOf(engine, gate, show)).toEqual({ admitted: 4, inside: 4, capacity: 52, sold: 4 });
  });
});
