import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, type InventoryBody } from '../helpers/cart-assertions';
import {
  CONCERT,
  CONCERT_2,
  checkIn,
  checkinOf,
  countsOf,
  getCounts,
  keyWith,
  postCheckin,
  sellTickets,
  signedOf,
  type SignedOrder,
} from '../helpers/checkins-contract';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { expectError, listOrders } from '../helpers/orders';
import { cancelOrder } from '../helpers/shifts-contract';

/**
 * Contract §15, GET /api/v3/occurrences/{id}/checkins → { admitted, inside, capacity, sold } after a mix of entries,
 * exits, refusals and cancellations (capacity and sold agreeing with the catalog and the orders), and concurrent
 * check-ins of one ticket: exactly one 201. Written from the contract and the shared design only.
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

/** Σ capacity of the show's inventory items, as the catalog's inventory answer has them */
async function catalogCapacity(occurrenceId: string): Promise<number> {
  const response = await engine.request<InventoryBody>('GET', `/occurrences/${occurrenceId}/inventory`, { key: engine.keys.catalogRead });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.areas.flatMap((area) => area.inventoryItems).reduce((sum, item) => sum + item.capacity, 0);
}

/** tickets of the show in confirmed orders, as GET /orders lists them */
async function soldByOrders(occurrenceId: string): Promise<number> {
  const page = await listOrders(engine, '?limit=200');
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  let sold = 0;
  for (const order of page.body.data.filter((candidate) => candidate.status === 'confirmed')) {
    const items = new Set(order.items.filter((item) => item.occurrenceId === occurrenceId).map((item) => item.id));
    sold += order.tickets.filter((ticket) => items.has(ticket.itemId)).length;
  }
  return sold;
}

const ticketsOf = (order: SignedOrder, n: number) => {
  expect(order.tickets).toHaveLength(n);
  return order.tickets;
};

describe('§15 GET /occurrences/{id}/checkins', () => {
  it('before any sale: nothing admitted, inside or sold; capacity is the catalog\'s', async () => {
    const capacity = await catalogCapacity(CONCERT_2.occurrenceId);
    expect(capacity).toBe(52);
    expect(await countsOf(engine, gate, CONCERT_2.occurrenceId)).toEqual({ admitted: 0, inside: 0, capacity, sold: 0 });
    expect(await countsOf(engine, gate, 'tempest-2027-04-09')).toEqual({ admitted: 0, inside: 0, capacity: await catalogCapacity('tempest-2027-04-09'), sold: 0 });
  });

  it('after entries, exits, re-entries, refusals and a cancelled order: admitted counts tickets in at least once, inside those in now', async () => {
    const [a1, a2, a3] = ticketsOf(await sellTickets(engine, [concert(3, 'standing-adult', CONCERT_2.occurrenceId)]), 3);
    const [b1, b2] = ticketsOf(await sellTickets(engine, [concert(2, 'balcony-adult', CONCERT_2.occurrenceId)]), 2);
    const cancelled = await sellTickets(engine, [concert(1, 'standing-student', CONCERT_2.occurrenceId)]);
    const [other] = ticketsOf(await sellTickets(engine, [concert(1)]), 1); // another show
    if (!a1 || !a2 || !a3 || !b1 || !b2 || !other) throw new Error('no tickets');
    await cancelOrder(engine, cancelled.id);

    await checkIn(engine, gate, { code: signedOf(a1), occurrenceId: CONCERT_2.occurrenceId });
    await checkIn(engine, gate, { code: a2.code });
    await checkIn(engine, gate, { code: signedOf(b1), gate: 'balcony' });
    await checkIn(engine, gate, { code: a1.code, direction: 'out' }, 'left');
    await checkIn(engine, gate, { code: signedOf(a2), direction: 'out' }, 'left');
    await checkIn(engine, gate, { code: a2.code, direction: 'in' });
    await checkIn(engine, gate, { code: signedOf(b2) });
    await checkIn(engine, gate, { code: b2.code, direction: 'out' }, 'left');
    await checkIn(engine, gate, { code: signedOf(other) });
    // refusals change nothing
    expectError(await postCheckin(engine, gate, { code: b1.code }), 409, 'ALREADY_CHECKED_IN');
    expectError(await postCheckin(engine, gate, { code: a3.code, occurrenceId: CONCERT.occurrenceId }), 409, 'TICKET_WRONG_OCCURRENCE');
    expectError(await postCheckin(engine, gate, { code: signedOf(cancelled.tickets[0] ?? a3) }), 410, 'TICKET_CANCELLED');

    const capacity = await catalogCapacity(CONCERT_2.occurrenceId);
    const counts = await countsOf(engine, gate, CONCERT_2.occurrenceId);
    expect(counts).toEqual({ admitted: 4, inside: 2, capacity, sold: 5 });
    expect(counts.sold).toBe(await soldByOrders(CONCERT_2.occurrenceId));
    const concert1 = await countsOf(engine, gate, CONCERT.occurrenceId);
    expect(concert1).toMatchObject({ admitted: 1, inside: 1, capacity: await catalogCapacity(CONCERT.occurrenceId) });
    expect(concert1.sold).toBe(await soldByOrders(CONCERT.occurrenceId));
  });

  it('cancelling an order takes its tickets out of sold', async () => {
    const order = await sellTickets(engine, [concert(2, 'standing-adult', CONCERT_2.occurrenceId)]);
    const before = await countsOf(engine, gate, CONCERT_2.occurrenceId);
    await cancelOrder(engine, order.id);
    const after = await countsOf(engine, gate, CONCERT_2.occurrenceId);
    expect(after.sold).toBe(before.sold - 2);
    expect(after.sold).toBe(await soldByOrders(CONCERT_2.occurrenceId));
    expect(after.capacity).toBe(before.capacity);
  });

  it('an unknown show answers 404 RESOURCE_NOT_FOUND', async () => {
    expectError(await getCounts(engine, gate, 'no-such-show'), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('§15 concurrent check-ins of one ticket', () => {
  it('24 concurrent "in"s of one ticket (signed and plain codes, several gates): exactly one 201, the others 409 ALREADY_CHECKED_IN naming it', async () => {
    const [ticket] = ticketsOf(await sellTickets(engine, [concert(1, 'balcony-adult')]), 1);
    if (!ticket) throw new Error('no ticket');
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, i) => postCheckin(engine, gate, { code: i % 2 === 0 ? signedOf(ticket) : ticket.code, gate: `gate-${i % 4}` })),
    );
    const admitted = responses.filter((response) => response.status === 201);
    expect(admitted, JSON.stringify(responses.map((response) => response.status))).toHaveLength(1);
    const [won] = admitted;
    if (!won) throw new Error('none admitted');
    const winner = checkinOf(won);
    for (const response of responses.filter((candidate) => candidate.status !== 201)) {
      const error = expectError(response, 409, 'ALREADY_CHECKED_IN');
      expect(error.details?.gate).toBe(winner.gate);
      expect(Date.parse(String(error.details?.at))).toBe(Date.parse(winner.at));
    }

    const outs = await Promise.all(Array.from({ length: 12 }, () => postCheckin(engine, gate, { code: ticket.code, direction: 'out' })));
    expect(outs.filter((response) => response.status === 201), JSON.stringify(outs.map((response) => response.status))).toHaveLength(1);
    for (const response of outs.filter((candidate) => candidate.status !== 201)) expectError(response, 409, 'NOT_CHECKED_IN');
  });

  it('concurrent first entries of different tickets are all admitted, and counted once each', async () => {
    const before = await countsOf(engine, gate, 'brass-2027-03-12');
    const tickets = ticketsOf(await sellTickets(engine, [concert(10, 'standing-student')]), 10);
    const responses = await Promise.all(tickets.map((ticket, i) => postCheckin(engine, gate, { code: i % 2 === 0 ? signedOf(ticket) : ticket.code })));
    for (const response of responses) checkinOf(response);
    const after = await countsOf(engine, gate, 'brass-2027-03-12');
    expect(after.admitted - before.admitted).toBe(10);
    expect(after.inside - before.inside).toBe(10);
  });
});
