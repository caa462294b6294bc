import { afterEach, describe, expect, it } from 'vitest';
import type { Cart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import {
  FEST,
  SYNC_SCOPES,
  catalogFile,
  expectArrivedExactlyOnce,
  importedOrders,
  allOrders,
  soldOf,
  startPair,
  syncStatus,
  waitForStatus,
  waitUntil,
  type Order,
  type SyncPair,
} from './harness';

/**
 * Issue #22: against a plain v3 upstream with --offline-sales, an order the upstream refuses for stock waited
 * behind "stock upstream may still be held by an earlier cart of this order" for half an hour before it
 * reached the conflict inbox — because a delivery attempt answered 502 by a gateway (the upstream gone) was
 * counted as one that may have made a cart. Now a refused delivery releases this terminal's own earlier
 * upstream carts it knows of, and decides within seconds. At the shipped sync settings (1 s retry step,
 * 1 s idle look) and the upstream's shipped hold (15 minutes).
 */

const DEFAULTS = { retryBaseMs: 1000, pollMs: 1000, pullIntervalMs: 60_000 } as const;
const VIP = { occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.vip.inventoryItemId, priceOptionId: FEST.vip.priceOptionId, quantity: 1 };

const pairs: SyncPair[] = [];
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  await Promise.all(pairs.splice(0).map((pair) => pair.close()));
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function onlinePair(seed: number): Promise<SyncPair> {
  const pair = await startPair({ kind: 'v3', proxy: { seed }, sync: DEFAULTS });
  pairs.push(pair);
  await waitForStatus(pair.kiosk, (status) => status.upstreamKind === 'v3' && status.online === true, 15_000, 'the kiosk to know its plain v3 upstream');
  return pair;
}

/** when the upstream first refused a new cart (the proxy's clock, ms) */
function firstRefusal(pair: SyncPair): number | undefined {
  return pair.proxy.events.find((event) => event.route === 'POST /carts' && event.kind === 'relayed' && event.status === 409)?.at;
}

async function checkout(pair: SyncPair, cart: Cart): Promise<Order> {
  const placed = await pair.kiosk.request<{ data: Order }>('POST', '/orders', {
    body: { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'cash' } },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  return placed.body.data;
}

describe('a plain v3 upstream refuses an order sold offline for stock', () => {
  it('the order reaches the conflict inbox within seconds of the refusal, though its delivery was tried while the upstream was gone', async () => {
    const pair = await onlinePair(11);
    const { upstream, kiosk, proxy } = pair;
    // The upstream sells the one VIP pass at its own desk.
    const desk = await upstream.request<{ data: Cart }>('POST', '/carts', { body: { items: [VIP] } });
    expect(desk.status).toBe(201);
    const deskSale = await upstream.request('POST', '/orders', {
      body: { cartId: desk.body.data.id, expectedTotal: desk.body.data.total, payment: { method: 'cash' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(deskSale.status).toBe(201);

    // The upstream's gateway answers 502 (the service behind it is gone); the kiosk sells the pass offline and
    // tries to deliver it at once: its POST /carts meets the 502s.
    proxy.setDown(true);
    const cart = await kiosk.request<{ data: Cart }>('POST', '/carts', { body: { items: [VIP] } });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const vip = await checkout(pair, cart.body.data);
    // (the first 502 answered the till's hold-first request, the second the worker's delivery)
    await waitUntil(() => (proxy.counters.byRoute['down POST /carts'] ?? 0) >= 2, 15_000, 'a delivery attempt while the upstream is gone');
    proxy.setDown(false);

    const status = await waitForStatus(kiosk, (s) => s.conflicts.length === 1, 60_000, 'the conflict');
    expect(status.conflicts[0]).toMatchObject({ kind: 'order', orderId: vip.id, code: 'INVENTORY_EXHAUSTED' });
    const refusedAt = firstRefusal(pair);
    if (refusedAt === undefined) throw new Error('the upstream never refused a cart');
    const decidedAfter = Date.parse(status.conflicts[0]?.at ?? '') - refusedAt;
    expect(decidedAfter).toBeLessThan(10_000);
    expect(status.waiting).toBe(0);
    expect(importedOrders(await allOrders(upstream)).some((order) => order.payment.reference === vip.id)).toBe(false);
  }, 90_000);

  it('the upstream process gone (connection refused) while the pass is sold: the conflict within seconds of its return', async () => {
    const file = catalogFile();
    cleanup.push(file.remove);
    const upstream: TestEngine = await startTestEngine({ catalogFile: file.path, demo: false, allocations: false, capabilities: false });
    cleanup.push(() => upstream.close());
    const kiosk = await startTestEngine({ catalogFile: file.path, demo: false, offlineSales: true, upstream: { url: upstream.url, key: await upstream.createKey(SYNC_SCOPES), ...DEFAULTS } });
    cleanup.push(() => kiosk.close());
    await waitForStatus(kiosk, (status) => status.upstreamKind === 'v3' && status.online === true, 15_000, 'the kiosk to know its plain v3 upstream');
    const desk = await upstream.request<{ data: Cart }>('POST', '/carts', { body: { items: [VIP] } });
    const deskSale = await upstream.request('POST', '/orders', {
      body: { cartId: desk.body.data.id, expectedTotal: desk.body.data.total, payment: { method: 'cash' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(deskSale.status).toBe(201);

    await upstream.stop();
    const cart = await kiosk.request<{ data: Cart }>('POST', '/carts', { body: { items: [VIP] } });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201); // sold offline: the hold-first request found nobody
    const placed = await kiosk.request<{ data: Order }>('POST', '/orders', {
      body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(placed.status).toBe(201);
    await upstream.start();
    const back = Date.now();

    const status = await waitForStatus(kiosk, (s) => s.conflicts.length === 1, 60_000, 'the conflict');
    expect(status.conflicts[0]).toMatchObject({ orderId: placed.body.data.id, code: 'INVENTORY_EXHAUSTED' });
    expect(Date.parse(status.conflicts[0]?.at ?? '') - back).toBeLessThan(10_000);
  }, 90_000);

  it("an order whose stock was held by the terminal's own earlier upstream cart goes through instead of conflicting", async () => {
    const pair = await onlinePair(12);
    const { upstream, kiosk, proxy } = pair;
    // Online: the kiosk's cart for the pass is held upstream first (that upstream cart holds the pass).
    const first = await kiosk.request<{ data: Cart }>('POST', '/carts', { body: { items: [VIP] } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(proxy.counters.upstreamStatus['POST /carts 201']).toBe(1);

    // Offline, the customer's cart is made again (previousCartId: the first one is released here, but its
    // hold upstream cannot be released while the upstream is gone), and paid.
    proxy.setDown(true);
    const again = await kiosk.request<{ data: Cart }>('POST', '/carts', { body: { items: [VIP], previousCartId: first.body.data.id } });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    const vip = await checkout(pair, again.body.data);
    await waitUntil(() => (proxy.counters.byRoute['down POST /carts'] ?? 0) >= 2, 15_000, 'a delivery attempt while the upstream is gone');
    proxy.setDown(false);

    // The upstream refuses the new cart (its own earlier cart holds the pass): that cart is released, and the
    // order goes through — within seconds, not when the earlier hold lapses (15 minutes).
    const synced = await waitForStatus(kiosk, (s) => s.waiting === 0, 60_000, 'the order to be delivered');
    expect(synced.conflicts).toEqual([]);
    await expectArrivedExactlyOnce(upstream, [vip]);
    expect(soldOf(upstream.dataDir)).toEqual({ [FEST.vip.inventoryItemId]: 1 });
    // the earlier cart was released by the terminal, not left to lapse
    expect(proxy.counters.upstreamStatus['DELETE /carts/:id 204']).toBe(1);
    expect(proxy.counters.upstreamStatus['POST /carts 409']).toBe(1);
    const refusedAt = firstRefusal(pair);
    const deliveredAt = pair.proxy.events.find((event) => event.route === 'POST /orders' && event.status === 201)?.at;
    if (refusedAt !== undefined && deliveredAt !== undefined) expect(deliveredAt - refusedAt).toBeLessThan(10_000);
    expect((await syncStatus(kiosk)).conflicts).toEqual([]);
  }, 90_000);

  it('online, a cart made again for the same pass carries the earlier upstream cart along (previousCartId): the customer is not refused', async () => {
    const pair = await onlinePair(13);
    const { kiosk } = pair;
    const first = await kiosk.request<{ data: Cart }>('POST', '/carts', { body: { items: [VIP] } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await kiosk.request<{ data: Cart }>('POST', '/carts', { body: { items: [VIP], previousCartId: first.body.data.id } });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    const vip = await checkout(pair, again.body.data);
    const synced = await waitForStatus(kiosk, (s) => s.waiting === 0, 30_000, 'the order to be delivered');
    expect(synced.conflicts).toEqual([]);
    await expectArrivedExactlyOnce(pair.upstream, [vip]);
  }, 60_000);
});
