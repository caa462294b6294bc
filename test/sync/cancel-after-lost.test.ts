import { afterEach, describe, expect, it } from 'vitest';
import { FEST, UPSTREAMS, allOrders, importedOrders, outboxOf, sellItem, soldOf, startPair, waitForSynced, waitUntil, type Order, type SyncPair } from './harness';

/**
 * An order whose delivery answer was lost — so it is upstream, though the kiosk does not know — is then
 * cancelled at the desk while the line is down. When the line returns the upstream must end with that order
 * cancelled, not live: the kiosk finds the order there and its cancellation follows.
 */

const pairs: SyncPair[] = [];
afterEach(async () => {
  await Promise.all(pairs.splice(0).map((pair) => pair.close()));
});

describe.each(UPSTREAMS)('an order cancelled here after its delivery answer was lost ($kind)', ({ kind }) => {
  it('ends cancelled upstream too, and its places are free there', async () => {
    const pair = await startPair({ kind, proxy: { seed: 11, down: true } });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;
    const sold = await sellItem(kiosk, 'B7', FEST.boxes.priceOptionId);

    // The request that makes the order upstream is carried out, its answer lost, and the line goes down.
    proxy.setRates({ loseAfterForward: 1 }, { method: 'POST', path: kind === 'hub' ? /^\/api\/v3\/orders\/import$/ : /^\/api\/v3\/orders$/ });
    proxy.onEvent((event) => {
      if (event.kind === 'lost') proxy.setDown(true);
    });
    proxy.setDown(false);
    await waitUntil(() => proxy.counters.lost === 1, 15_000, 'the answer to be lost');
    expect(importedOrders(await allOrders(upstream)).map((order) => [order.payment.reference, order.status])).toEqual([[sold.id, 'confirmed']]);

    // Refunded at the desk while offline.
    const cancelled = await kiosk.request<{ data: Order }>('POST', `/orders/${sold.id}/cancel`);
    expect(cancelled.status).toBe(200);

    proxy.onEvent(undefined);
    proxy.heal();
    const synced = await waitForSynced(kiosk, 30_000);
    expect(synced.conflicts).toEqual([]);

    const upstreamOrders = importedOrders(await allOrders(upstream));
    expect(upstreamOrders.map((order) => [order.payment.reference, order.status])).toEqual([[sold.id, 'cancelled']]);
    expect(soldOf(upstream.dataDir)).toEqual({});
    expect(soldOf(kiosk.dataDir)).toEqual({});
    expect(outboxOf(kiosk.dataDir).map((entry) => [entry.kind, entry.state, entry.upstreamOrderId])).toEqual([
      ['order', 'delivered', upstreamOrders[0]?.id],
      ['cancel', 'delivered', upstreamOrders[0]?.id],
    ]);
  }, 60_000);
});
