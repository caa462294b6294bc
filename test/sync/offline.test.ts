import { afterEach, describe, expect, it } from 'vitest';
import {
  UPSTREAMS,
  allOrders,
  expectArrivedExactlyOnce,
  expectOutboxDelivered,
  importedOrders,
  sellMany,
  soldOf,
  startPair,
  syncStatus,
  waitForStatus,
  waitForSynced,
  type SyncPair,
} from './harness';

/** Done when #1: 200 orders sold while the upstream is down arrive exactly once each after it comes back, totals equal. */

const pairs: SyncPair[] = [];
afterEach(async () => {
  await Promise.all(pairs.splice(0).map((pair) => pair.close()));
});

describe.each(UPSTREAMS)('selling while the upstream ($kind) is down', ({ kind }) => {
  it('200 orders sold offline arrive upstream exactly once each when it comes back, with equal totals', async () => {
    const pair = await startPair({ kind, proxy: { seed: 1, down: true } });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;

    // The kiosk never reached its upstream: it says so, and keeps selling.
    const first = await waitForStatus(kiosk, (status) => status.online === false, 10_000, 'the kiosk to notice it is offline');
    expect(first.upstream).toBe(proxy.url);
    expect(first.lastError).toEqual(expect.any(String));

    const local = await sellMany(kiosk, 200);
    expect(new Set(local.map((order) => order.id)).size).toBe(200);

    const offline = await syncStatus(kiosk);
    expect(offline).toMatchObject({ online: false, waiting: 200, conflicts: [] });
    expect(importedOrders(await allOrders(upstream))).toHaveLength(0);
    expect(proxy.counters.down).toBeGreaterThan(0);
    expect(proxy.counters.relayed).toBe(0);

    // The line comes back.
    proxy.setDown(false);
    const synced = await waitForSynced(kiosk, 60_000);
    expect(synced).toMatchObject({ online: true, lastError: null, keyRejected: false, upstreamKind: kind, waiting: 0, conflicts: [], oldestWaitingSeconds: null, estimatedSecondsLeft: 0 });
    expect(synced.deliveryRate).toBeGreaterThan(0);
    expect(synced.lastSuccessAt).toEqual(expect.any(String));

    const imported = await expectArrivedExactlyOnce(upstream, local);
    expectOutboxDelivered(kiosk.dataDir, local, imported);
    // What the kiosk sold is exactly what the upstream now counts as sold: no extra, none missing.
    expect(soldOf(upstream.dataDir)).toEqual(soldOf(kiosk.dataDir));
    // No fault was injected once up: every upstream answer reached the kiosk and each order went through once
    // — to a hub in batches of up to 100 with no cart at all, to a plain v3 service one checkout each.
    if (kind === 'hub') {
      expect(proxy.counters.upstreamStatus['POST /orders/import 200']).toBeLessThanOrEqual(8);
      expect(proxy.counters.byRoute['relayed POST /carts'] ?? 0).toBe(0);
    } else {
      expect(proxy.counters.upstreamStatus['POST /orders 201']).toBe(200);
      expect(proxy.counters.byRoute['relayed POST /orders/import'] ?? 0).toBe(0);
    }
    expect(proxy.counters.lost + proxy.counters.serviceUnavailable + proxy.counters.tooMany).toBe(0);
  }, 120_000);
});
