import { afterEach, describe, expect, it } from 'vitest';
import type { Cart } from '../helpers/cart-assertions';
import { FEST, UPSTREAMS, allOrders, importedOrders, outboxOf, sellItem, startPair, waitForStatus, waitForSynced, type Order, type SyncPair } from './harness';

/** A conflicting order that staff cancel locally is never sent upstream as a sale, even when retried. */

const pairs: SyncPair[] = [];
afterEach(async () => {
  await Promise.all(pairs.splice(0).map((pair) => pair.close()));
});

describe.each(UPSTREAMS)('a refused order cancelled at the desk, then sent again ($kind)', ({ kind }) => {
  it('does not reach the upstream as a live sale', async () => {
    const pair = await startPair({ kind, proxy: { seed: 9, down: true } });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;

    // The upstream sells the only VIP pass; the kiosk, offline, sells it too.
    const cart = await upstream.request<{ data: Cart }>('POST', '/carts', {
      body: { items: [{ occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.vip.inventoryItemId, priceOptionId: FEST.vip.priceOptionId, quantity: 1 }] },
    });
    expect(
      (await upstream.request('POST', '/orders', { body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } }, headers: { 'idempotency-key': crypto.randomUUID() } }))
        .status,
    ).toBe(201);
    const vip = await sellItem(kiosk, FEST.vip.inventoryItemId, FEST.vip.priceOptionId);
    proxy.setDown(false);
    const status = await waitForSynced(kiosk, 30_000);
    const conflict = status.conflicts[0];
    if (!conflict) throw new Error('expected a conflict');

    // Staff refund it at the desk, then press "send again" on the conflict.
    expect((await kiosk.request<{ data: Order }>('POST', `/orders/${vip.id}/cancel`)).status).toBe(200);
    expect((await kiosk.request('POST', `/sync/conflicts/${conflict.id}/retry`)).status).toBe(200);
    await waitForStatus(kiosk, (s) => s.waiting === 0 && s.conflicts.length === 0, 15_000, 'the retried entry to settle');

    expect(importedOrders(await allOrders(upstream)).some((order) => order.payment.reference === vip.id)).toBe(false);
    const entries = outboxOf(kiosk.dataDir).filter((entry) => entry.orderId === vip.id);
    expect(entries.map((entry) => [entry.kind, entry.state, entry.upstreamOrderId])).toEqual([
      ['order', 'delivered', null],
      ['cancel', 'delivered', null],
    ]);
  });
});
