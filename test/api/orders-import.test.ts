import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { FEST, catalogFile, type Order } from '../sync/harness';
import { readNumber, readRows } from '../helpers/db-rows';

/** A hub's one-request order import (contract §10): GET /capabilities and POST /orders/import. */

interface Result {
  reference: string;
  idempotencyKey: string;
  status: number;
  replayed?: boolean;
  order?: Order;
  error?: ErrorEnvelope['error'];
}

let hub: TestEngine;
let plain: TestEngine;
let importKey: string;
let writeOnly: string;
const file = catalogFile();

beforeAll(async () => {
  hub = await startTestEngine({ catalogFile: file.path, demo: false });
  plain = await startTestEngine({ catalogFile: file.path, demo: false, capabilities: false });
  importKey = await hub.createKey(['orders:import']);
  writeOnly = await hub.createKey(['orders:write', 'carts:write']);
});
afterAll(async () => {
  await hub.close();
  await plain.close();
  file.remove();
});

const adults = (quantity: number) => ({ occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.field.inventoryItemId, priceOptionId: FEST.field.adult, quantity });
const vip = { occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.vip.inventoryItemId, priceOptionId: FEST.vip.priceOptionId, quantity: 1 };

function terminalOrder(overrides: Record<string, unknown> = {}) {
  return {
    idempotencyKey: crypto.randomUUID(),
    reference: `ord_${crypto.randomUUID()}`,
    items: [adults(2)],
    expectedTotal: { amount: 2 * FEST.prices.adult, currency: 'EUR' },
    ...overrides,
  };
}

async function importBatch(orders: unknown[], key = importKey) {
  return hub.request<{ data: { results: Result[] } } & ErrorEnvelope>('POST', '/orders/import', { key, body: { orders } });
}

const fieldState = async (engine: TestEngine) =>
  (await readRows<{ held: number; sold: number }>(engine, "SELECT held, sold FROM inventory_items WHERE id = 'field'"))[0];

describe('GET /capabilities', () => {
  it('lists the hub extensions without a key; a plain v3 service has no such route', async () => {
    const answer = await hub.request<{ data: { extensions: string[]; limits: { importBatch: number } } }>('GET', '/capabilities', { key: null });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ extensions: ['orders.import-batch', 'allocations.places', 'journal.import', 'checkins'], limits: { importBatch: 100 } });
    const none = await plain.request<ErrorEnvelope>('GET', '/capabilities', { key: null });
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect((await plain.request('POST', '/orders/import', { key: plain.keys.admin, body: { orders: [terminalOrder()] } })).status).toBe(404);
  });
});

describe('POST /orders/import', () => {
  it('creates a whole order — tickets, extras, voucher, currency — with the external payment, in one request', async () => {
    const before = await fieldState(hub);
    const order = terminalOrder({
      items: [adults(3)],
      extras: [{ extraId: FEST.extraId, quantity: 2 }],
      vouchers: [FEST.voucher.toLowerCase()],
      // 3 × 35.00 with 10 % off, plus 2 × 8.00 parking
      expectedTotal: { amount: Math.round(3 * FEST.prices.adult * 0.9) + 2 * FEST.prices.parking, currency: 'EUR' },
    });
    const answer = await importBatch([order]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const [result] = answer.body.data.results;
    expect(result).toMatchObject({ reference: order.reference, idempotencyKey: order.idempotencyKey, status: 201 });
    expect(result?.replayed).toBeUndefined();
    expect(result?.order).toMatchObject({ status: 'confirmed', total: order.expectedTotal, payment: { method: 'external', status: 'captured', reference: order.reference } });
    expect(result?.order?.tickets).toHaveLength(3);
    expect(result?.order?.items.find((item) => item.type === 'extra')?.quantity).toBe(2);
    expect(await fieldState(hub)).toEqual({ held: before?.held, sold: (before?.sold ?? 0) + 3 });

    // It is an order like any other, of the importing terminal's key: readable where every order is (admin,
    // orders:any), not found by a key of another owner (issue #22).
    const read = await hub.request<{ data: Order }>('GET', `/orders/${result?.order?.id ?? ''}`, { key: hub.keys.admin });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(result?.order);
    expect((await hub.request('GET', `/orders/${result?.order?.id ?? ''}`, { key: hub.keys.ordersRead })).status).toBe(404);
  });

  it('prices a foreign currency as the cart flow does', async () => {
    const cart = await hub.request<{ data: { total: { amount: number; currency: string } } }>('POST', '/carts', { key: hub.keys.carts, body: { items: [adults(1)], currency: 'USD' } });
    expect(cart.status).toBe(201);
    const answer = await importBatch([terminalOrder({ items: [adults(1)], currency: 'USD', expectedTotal: cart.body.data.total })]);
    expect(answer.body.data.results[0]).toMatchObject({ status: 201, order: { currency: 'USD', total: cart.body.data.total } });
  });

  it('answers the first order again for the same key and reference; the same reference from another key is refused (409), never a second order', async () => {
    const order = terminalOrder();
    const first = (await importBatch([order])).body.data.results[0];
    expect(first?.status).toBe(201);
    const sold = (await fieldState(hub))?.sold;
    const again = (await importBatch([order])).body.data.results[0];
    expect(again).toMatchObject({ status: 201, replayed: true, order: first?.order });
    // the same reference under a new Idempotency-Key of the same terminal: still the first order
    const renamed = (await importBatch([{ ...order, idempotencyKey: crypto.randomUUID() }])).body.data.results[0];
    expect(renamed).toMatchObject({ status: 201, replayed: true, order: { id: first?.order?.id } });
    // another terminal's key never gets that order (issue #22): a refusal for good, for its conflict inbox
    const otherKey = await hub.createKey(['orders:import']);
    const sameReference = (await importBatch([{ ...order, idempotencyKey: crypto.randomUUID() }], otherKey)).body.data.results[0];
    expect(sameReference).toMatchObject({ status: 409, error: { code: 'IMPORT_REFERENCE_TAKEN', type: 'CONFLICT_ERROR', param: 'orders[0].reference' } });
    expect(sameReference?.order).toBeUndefined();
    expect((await fieldState(hub))?.sold).toBe(sold);

    const reused = (await importBatch([{ ...order, reference: 'ord_someone_else' }])).body.data.results[0];
    expect(reused).toMatchObject({ status: 409, error: { code: 'IDEMPOTENCY_KEY_REUSED', type: 'CONFLICT_ERROR', param: 'orders[0].idempotencyKey' } });
    expect(reused?.error?.message.length).toBeGreaterThan(0);
  });

  it('refuses an order as a whole with the v3 code, holds nothing for it, and still takes the others of the batch', async () => {
    const heldCarts = () => readNumber(hub, "SELECT COUNT(*) AS n FROM carts WHERE status = 'held'");
    const heldBefore = await heldCarts();
    const before = await fieldState(hub);
    const vipSold = await importBatch([terminalOrder({ items: [vip], expectedTotal: { amount: FEST.prices.vip, currency: 'EUR' } })]);
    expect(vipSold.body.data.results[0]?.status).toBe(201);

    const good = terminalOrder();
    const answer = await importBatch([
      terminalOrder({ items: [vip], expectedTotal: { amount: FEST.prices.vip, currency: 'EUR' } }),
      terminalOrder({ expectedTotal: { amount: 1, currency: 'EUR' } }),
      terminalOrder({ idempotencyKey: 'not-a-uuid' }),
      terminalOrder({ extras: [{ extraId: FEST.extraId, quantity: 1 }], vouchers: ['NOPE'] }),
      good,
    ]);
    expect(answer.status).toBe(200);
    const results = answer.body.data.results;
    expect(results.map((result) => [result.status, result.error?.code, result.error?.param])).toEqual([
      [409, 'INVENTORY_EXHAUSTED', 'orders[0].items[0].quantity'],
      [400, 'EXPECTED_TOTAL_MISMATCH', 'orders[1].expectedTotal'],
      [400, 'INVALID_IDEMPOTENCY_KEY', 'orders[2].idempotencyKey'],
      [400, 'INVALID_VOUCHER', 'orders[3].code'],
      [201, undefined, undefined],
    ]);
    expect(results[4]?.reference).toBe(good.reference);
    // Only the good order sold anything; the refused ones hold nothing (no orphan hold), and no cart of theirs is left held.
    expect(await fieldState(hub)).toEqual({ held: before?.held, sold: (before?.sold ?? 0) + 2 });
    expect(await heldCarts()).toBe(heldBefore);
  });

  it('needs the orders:import scope, a valid body, and at most 100 orders', async () => {
    const refused = await importBatch([terminalOrder()], writeOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await hub.request('POST', '/orders/import', { key: null, body: { orders: [terminalOrder()] } })).status).toBe(401);
    const tooMany = await importBatch(Array.from({ length: 101 }, () => terminalOrder()));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('INVALID_FIELD_VALUE');
    const stray = await importBatch([{ ...terminalOrder(), payment: { method: 'card' } }]);
    expect(stray.status).toBe(400);
    // an import's `payment` is only a terminal's gift-card parts held here (issue #24): no card, no method
    expect(stray.body.error.param).toMatch(/^orders\[0\]\.payment/);
    expect((await importBatch([])).status).toBe(400);
  });
});
