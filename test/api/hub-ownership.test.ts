import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOC, allocationCatalog } from '../fixtures/allocation-catalog';
import { startTestEngine, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { expectError, type Order, type OrdersPage } from '../helpers/orders';
import { catalogFile, SYNC_SCOPES } from '../sync/harness';
import { readNumber, readRows } from '../helpers/db-rows';
import { refused } from '../../engine/sync/refusal';

/**
 * Issue #22, at a hub: a terminal's key that imported with another terminal's order reference got that order
 * back and, with orders:write, cancelled it — the hub put the places back on sale and sold them again (six valid
 * tickets for four places). And a reference another key claimed first swallowed a till's real order. Two
 * terminal keys try both here; the hub's sold count never passes capacity.
 */

interface Result {
  reference: string;
  status: number;
  replayed?: boolean;
  order?: Order;
  error?: ErrorEnvelope['error'];
}

const CAPACITY = 4;
let hub: TestEngine;
let tillA: string;
let tillB: string;
const file = catalogFile(allocationCatalog({ floor: CAPACITY, seats: 1 }));

beforeAll(async () => {
  hub = await startTestEngine({ catalogFile: file.path, demo: false });
  // terminal keys as a venue makes them, with orders:read too: still only their own orders
  tillA = await hub.createKey([...SYNC_SCOPES, 'orders:read']);
  tillB = await hub.createKey([...SYNC_SCOPES, 'orders:read']);
});
afterAll(async () => {
  await hub.close();
  file.remove();
});

const floor = (quantity: number) => ({ occurrenceId: ALLOC.occurrenceId, inventoryItemId: ALLOC.floor.inventoryItemId, priceOptionId: ALLOC.floor.priceOptionId, quantity });
const order = (reference: string, quantity: number) => ({
  idempotencyKey: crypto.randomUUID(),
  reference,
  items: [floor(quantity)],
  expectedTotal: { amount: quantity * ALLOC.floor.price, currency: 'EUR' },
});
async function importOne(key: string, body: ReturnType<typeof order>): Promise<Result> {
  const answer = await hub.request<{ data: { results: Result[] } }>('POST', '/orders/import', { key, body: { orders: [body] } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const [result] = answer.body.data.results;
  if (!result) throw new Error('no result');
  return result;
}
/** the hub's books: sold places, and valid tickets (of orders not cancelled) of the floor */
const books = async () => ({
  sold: (await readRows<{ sold: number }>(hub, 'SELECT sold FROM inventory_items WHERE id = ?', [ALLOC.floor.inventoryItemId]))[0]?.sold,
  validTickets: await readNumber(hub,
    "SELECT COUNT(*) AS n FROM tickets t JOIN orders o ON o.id = t.order_id JOIN cart_items ci ON ci.id = t.item_id WHERE o.status = 'confirmed' AND ci.inventory_item_id = ?",
    [ALLOC.floor.inventoryItemId]),
});

describe('two terminal keys at one hub', () => {
  const refA = `ord_${crypto.randomUUID()}`;
  const refClaimed = `ord_${crypto.randomUUID()}`;
  let orderA: Order | undefined;

  it("a reference another key claimed first refuses this till's real order (409, for its conflict inbox): never swallowed as delivered", async () => {
    const claimed = await importOne(tillB, order(refClaimed, 1));
    expect(claimed.status).toBe(201);
    const real = await importOne(tillA, order(refClaimed, 2));
    expect(real).toMatchObject({ status: 409, error: { code: 'IMPORT_REFERENCE_TAKEN', type: 'CONFLICT_ERROR', param: 'orders[0].reference' } });
    expect(real.order).toBeUndefined();
    // the terminal's sync reads it as a refusal for good: the conflict inbox, where staff see it
    expect(refused({ status: 409, body: { error: real.error }, retryAfter: undefined })).toMatchObject({ kind: 'conflict', code: 'IMPORT_REFERENCE_TAKEN' });
    // B gives its place back (its own order: it may cancel it), so A can sell the house
    expect((await hub.request('POST', `/orders/${claimed.order?.id ?? ''}/cancel`, { key: tillB })).status).toBe(200);
    expect(await books()).toEqual({ sold: 0, validTickets: 0 });
  });

  it("the attack: B imports with A's reference, reads, lists and cancels — and gets nothing of A's order", async () => {
    const made = await importOne(tillA, order(refA, CAPACITY));
    expect(made.status).toBe(201);
    orderA = made.order;
    const id = orderA?.id ?? '';
    expect(await books()).toEqual({ sold: CAPACITY, validTickets: CAPACITY });

    const stolen = await importOne(tillB, order(refA, CAPACITY));
    expect(stolen).toMatchObject({ status: 409, error: { code: 'IMPORT_REFERENCE_TAKEN' } });
    expect(stolen.order).toBeUndefined();
    expectError(await hub.request('GET', `/orders/${id}`, { key: tillB }), 404, 'RESOURCE_NOT_FOUND');
    expectError(await hub.request('POST', `/orders/${id}/cancel`, { key: tillB }), 404, 'RESOURCE_NOT_FOUND');
    const listed = await hub.request<OrdersPage>('GET', '/orders?limit=200', { key: tillB });
    expect(listed.body.data.map((listedOrder) => listedOrder.id)).not.toContain(id);
    const code = orderA?.tickets[0]?.code ?? '';
    expect((await hub.request<OrdersPage>('GET', `/orders?ticketCode=${code}`, { key: tillB })).body.data).toEqual([]);

    // the house is sold: B sells nothing more, by import, cart or allocation
    expect((await importOne(tillB, order(`ord_${crypto.randomUUID()}`, 2))).error?.code).toBe('INVENTORY_EXHAUSTED');
    expect((await hub.request('POST', '/carts', { key: tillB, body: { items: [floor(1)] } })).status).toBe(409);
    const grant = await hub.request<{ data: { allocations: { quantity: number }[] } }>('POST', '/allocations', {
      key: tillB,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { changes: [{ occurrenceId: ALLOC.occurrenceId, inventoryItemId: ALLOC.floor.inventoryItemId, change: 2 }] },
    });
    expect(grant.body.data.allocations[0]?.quantity).toBe(0);
    expect(await books()).toEqual({ sold: CAPACITY, validTickets: CAPACITY });
  });

  it("A reads and cancels its own order (what its sync sends); the places go back once and are sold once more at most", async () => {
    const id = orderA?.id ?? '';
    expect((await hub.request<{ data: Order }>('GET', `/orders/${id}`, { key: tillA })).body.data.id).toBe(id);
    const again = await importOne(tillA, order(refA, CAPACITY));
    expect(again).toMatchObject({ status: 201, replayed: true, order: { id } });
    const cancelled = await hub.request<{ data: Order }>('POST', `/orders/${id}/cancel`, { key: tillA });
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(await books()).toEqual({ sold: 0, validTickets: 0 });
    expect((await importOne(tillB, order(`ord_${crypto.randomUUID()}`, CAPACITY))).status).toBe(201);
    expect((await importOne(tillA, order(`ord_${crypto.randomUUID()}`, 1))).error?.code).toBe('INVENTORY_EXHAUSTED');
    expect(await books()).toEqual({ sold: CAPACITY, validTickets: CAPACITY });
  });
});
