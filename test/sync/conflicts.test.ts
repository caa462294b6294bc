import { afterEach, describe, expect, it } from 'vitest';
import type { Cart } from '../helpers/cart-assertions';
import {
  FEST,
  UPSTREAMS,
  deliveriesStarted,
  allOrders,
  expectArrivedExactlyOnce,
  importedOrders,
  outboxOf,
  sell,
  sellItem,
  waitUntil,
  startPair,
  syncStatus,
  waitForStatus,
  waitForSynced,
  type Order,
  type SyncPair,
} from './harness';

/**
 * Done when #5: an order refused upstream for stock lands in the conflict inbox and stays there until
 * resolved. The one VIP pass (capacity 1) is sold at the upstream's own desk first, and by the kiosk while
 * it is offline.
 */

const pairs: SyncPair[] = [];
afterEach(async () => {
  await Promise.all(pairs.splice(0).map((pair) => pair.close()));
});

describe.each(UPSTREAMS)('an order the upstream ($kind) refuses for stock', ({ kind }) => {
  it('lands in the conflict inbox, stays there through sync cycles and a retry, and leaves it only when resolved', async () => {
    const pair = await startPair({ kind, proxy: { seed: 5, down: true }, sync: { pullIntervalMs: 100 } });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;

    // The upstream sells the pass itself.
    const upstreamCart = await upstream.request<{ data: Cart }>('POST', '/carts', {
      body: { items: [{ occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.vip.inventoryItemId, priceOptionId: FEST.vip.priceOptionId, quantity: 1 }] },
    });
    expect(upstreamCart.status).toBe(201);
    const upstreamSale = await upstream.request<{ data: Order }>('POST', '/orders', {
      body: { cartId: upstreamCart.body.data.id, expectedTotal: upstreamCart.body.data.total, payment: { method: 'cash' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(upstreamSale.status).toBe(201);

    // The kiosk, offline, sells it too — between two ordinary sales.
    const before = await sell(kiosk, 1);
    const vip = await sellItem(kiosk, FEST.vip.inventoryItemId, FEST.vip.priceOptionId);
    const after = await sell(kiosk, 2);
    expect((await syncStatus(kiosk)).waiting).toBe(3);

    proxy.setDown(false);
    const synced = await waitForSynced(kiosk, 30_000);
    expect(synced.waiting).toBe(0);
    expect(synced.conflicts).toHaveLength(1);
    const conflict = synced.conflicts[0];
    if (!conflict) throw new Error('no conflict');
    expect(conflict).toMatchObject({ kind: 'order', orderId: vip.id, code: 'INVENTORY_EXHAUSTED' });
    expect(conflict.message.length).toBeGreaterThan(0);
    expect(conflict.at).toEqual(expect.any(String));

    // The local sale stands: the customer has the ticket.
    const localVip = await kiosk.request<{ data: Order }>('GET', `/orders/${vip.id}`);
    expect(localVip.status).toBe(200);
    expect(localVip.body.data.status).toBe('confirmed');
    expect(localVip.body.data.tickets).toHaveLength(1);

    // The orders around it went through; the refused one is not upstream.
    await expectArrivedExactlyOnce(upstream, [before, after]);
    expect(importedOrders(await allOrders(upstream)).some((order) => order.payment.reference === vip.id)).toBe(false);

    // It stays in the inbox through more sync cycles (catalog pulls every 100 ms, the worker polling every 20 ms)…
    const pulls = () => proxy.counters.byRoute['relayed GET /catalog'] ?? 0;
    const pullsBefore = pulls();
    await waitUntil(() => pulls() > pullsBefore + 3, 15_000, 'four more sync cycles (catalog pulls)');
    let status = await syncStatus(kiosk);
    expect(status.conflicts).toEqual([conflict]);
    expect(status.waiting).toBe(0);

    // …and through a later sale that syncs past it.
    const later = await sell(kiosk, 3);
    status = await waitForSynced(kiosk, 15_000);
    expect(status.conflicts).toEqual([conflict]);
    await expectArrivedExactlyOnce(upstream, [before, after, later]);

    // Staff retry: sent again, the upstream still refuses, so it comes back to the inbox (a new refusal).
    const refusals = () => (kind === 'hub' ? deliveriesStarted(proxy, kind) : (proxy.counters.upstreamStatus['POST /carts 409'] ?? 0));
    const refusalsBefore = refusals();
    const retried = await kiosk.request<{ data: { state: string } }>('POST', `/sync/conflicts/${conflict.id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.data.state).toBe('pending');
    status = await waitForStatus(
      kiosk,
      (s) => s.waiting === 0 && s.conflicts.length === 1 && s.conflicts[0]?.at !== conflict.at,
      15_000,
      'the retried entry to come back to the inbox',
    );
    expect(status.conflicts[0]).toMatchObject({ id: conflict.id, orderId: vip.id, code: 'INVENTORY_EXHAUSTED' });
    expect(refusals()).toBe(refusalsBefore + 1);

    // Resolved with a note: out of the inbox, for good.
    const note = 'Refunded at the desk; the pass went to the box-office sale.';
    const resolved = await kiosk.request<{ data: { id: number; state: string; resolvedNote: string | null; orderId: string } }>('POST', `/sync/conflicts/${conflict.id}/resolve`, {
      body: { note },
    });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body.data).toMatchObject({ id: conflict.id, state: 'resolved', resolvedNote: note, orderId: vip.id });

    // Not sent again: the worker goes on with its cycles (three more catalog pulls seen), and sends nothing.
    const cartsBefore = deliveriesStarted(proxy, kind);
    const pullsAtResolve = pulls();
    await waitUntil(() => pulls() >= pullsAtResolve + 3, 15_000, 'three more sync cycles after the resolve');
    status = await syncStatus(kiosk);
    expect(status).toMatchObject({ waiting: 0, conflicts: [] });
    expect(deliveriesStarted(proxy, kind)).toBe(cartsBefore); // not sent again
    expect(outboxOf(kiosk.dataDir).find((entry) => entry.orderId === vip.id)?.state).toBe('resolved');

    // A resolved entry is no conflict any more: neither retry nor resolve apply to it.
    const again = await kiosk.request<{ error: { code: string } }>('POST', `/sync/conflicts/${conflict.id}/resolve`, { body: { note: 'twice' } });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('INVALID_FIELD_VALUE');
    expect((await kiosk.request('POST', `/sync/conflicts/${conflict.id}/retry`)).status).toBe(400);
    expect((await kiosk.request('POST', '/sync/conflicts/999/resolve', { body: { note } })).status).toBe(404);

    // The upstream's own sale is untouched and still the only VIP order there.
    const upstreamVip = (await allOrders(upstream)).filter((order) => order.items.some((item) => item.inventoryItemId === FEST.vip.inventoryItemId));
    expect(upstreamVip.map((order) => order.id)).toEqual([upstreamSale.body.data.id]);
  }, 60_000);
});
