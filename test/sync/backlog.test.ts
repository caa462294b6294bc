import { afterEach, describe, expect, it } from 'vitest';
import { sellDirect } from '../helpers/sold-orders';
import {
  FEST,
  UPSTREAMS,
  expectArrivedExactlyOnce,
  expectOutboxDelivered,
  sellMany,
  sleep,
  soldOf,
  startPair,
  syncStatus,
  waitForStatus,
  waitForSynced,
  type SyncPair,
  type SyncStatus,
} from './harness';

/**
 * A backlog, at the shipped retry defaults: orders sold while the upstream is down reach it soon after it
 * returns (the long wait is capped at 30 s), the sync status shows the backlog draining, and a healthy
 * hub takes thousands of waiting orders in seconds.
 */

const pairs: SyncPair[] = [];
afterEach(async () => {
  await Promise.all(pairs.splice(0).map((pair) => pair.close()));
});

/** the shipped defaults of `serve`: no --sync-retry-ms, an idle worker looks every second */
const DEFAULTS = { retryBaseMs: 1000, pollMs: 1000 } as const;

describe.each(UPSTREAMS)('a backlog of orders sold while the upstream ($kind) was down', ({ kind }) => {
  it('300 orders arrive within 45 s of its return, and the status shows the backlog draining', async () => {
    const pair = await startPair({ kind, proxy: { seed: 300, down: true }, sync: { ...DEFAULTS, pullIntervalMs: 60_000 } });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;

    const local = await sellMany(kiosk, 300);
    // Down long enough for the long wait to have grown (the upstream answered nothing at all).
    await sleep(Math.max(0, 20_000 - (Date.now() - (proxy.events[0]?.at ?? Date.now()))));
    const offline = await syncStatus(kiosk);
    expect(offline).toMatchObject({ online: false, waiting: 300, estimatedSecondsLeft: null, deliveryRate: 0 });
    expect(offline.oldestWaitingSeconds).toBeGreaterThanOrEqual(10);

    const back = Date.now();
    proxy.setDown(false);
    const seen: SyncStatus[] = [];
    const synced = await waitForStatus(
      kiosk,
      (status) => {
        seen.push(status);
        return status.waiting === 0;
      },
      45_000,
      'the backlog to drain within 45 s of the return',
    );
    expect(Date.now() - back).toBeLessThan(45_000);
    expect(synced).toMatchObject({ online: true, waiting: 0, conflicts: [], oldestWaitingSeconds: null, estimatedSecondsLeft: 0 });
    expect(synced.deliveryRate).toBeGreaterThan(0);
    // While it drained, the status said how fast and how long still (when it was seen mid-way).
    const draining = seen.filter((status) => status.waiting > 0 && status.waiting < 300);
    for (const status of draining) {
      expect(status.deliveryRate).toBeGreaterThan(0);
      expect(status.estimatedSecondsLeft).toBeGreaterThan(0);
      expect(Number.isInteger(status.estimatedSecondsLeft)).toBe(true);
    }

    const imported = await expectArrivedExactlyOnce(upstream, local);
    expectOutboxDelivered(kiosk.dataDir, local, imported);
    expect(soldOf(upstream.dataDir)).toEqual(soldOf(kiosk.dataDir));
  }, 150_000);
});

describe('a healthy hub', () => {
  it('takes 2,000 waiting orders in under 20 s', async () => {
    const pair = await startPair({ kind: 'hub', proxy: { seed: 2000, down: true }, sync: { ...DEFAULTS, pullIntervalMs: 60_000 } });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;
    // Written by the engine's own use cases straight into the kiosk's file: the drain is what is measured.
    const local = sellDirect(kiosk.dataDir, 2000, { occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.field.inventoryItemId, priceOptionId: FEST.field.adult });
    expect((await syncStatus(kiosk)).waiting).toBe(2000);

    // Let the worker's long wait run out first: the clock starts when it sends again.
    await waitForStatus(kiosk, (status) => status.online === false, 15_000, 'the kiosk to know it is offline');
    proxy.setDown(false);
    await waitForStatus(kiosk, (status) => status.waiting < 2000, 45_000, 'the first delivery');
    const firstAt = proxy.events.find((event) => event.kind === 'relayed' && event.route === 'POST /orders/import')?.receivedAt ?? Date.now();
    await waitForSynced(kiosk, 30_000);
    const lastAt = Math.max(...proxy.events.filter((event) => event.route === 'POST /orders/import').map((event) => event.at));
    expect(lastAt - firstAt, 'ms from the first import to the last answer').toBeLessThan(20_000);
    // twenty imports of a hundred, give or take the ones that met the last moments of the outage
    expect(proxy.counters.upstreamStatus['POST /orders/import 200']).toBeLessThanOrEqual(40);

    await expectArrivedExactlyOnce(upstream, local);
    expect(soldOf(upstream.dataDir)).toEqual(soldOf(kiosk.dataDir));
  }, 240_000);
});
