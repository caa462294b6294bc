import { afterEach, describe, expect, it } from 'vitest';
import {
  FEST,
  UPSTREAMS,
  expectArrivedExactlyOnce,
  expectOutboxDelivered,
  orderRoute,
  sellItem,
  sellMany,
  soldOf,
  startPair,
  syncStatus,
  waitForSynced,
  waitUntil,
  type SyncPair,
} from './harness';

/**
 * A flaky line to the upstream, at the product's shipped retry settings (1 s first step, no shortening):
 * 20 % of upstream answers are 503, 10 % are 429 with Retry-After: 1, 5 % are lost after the upstream did
 * the work. Every order still arrives exactly once, and within 90 s of the first sale.
 */

const pairs: SyncPair[] = [];
afterEach(async () => {
  await Promise.all(pairs.splice(0).map((pair) => pair.close()));
});

const ORDERS = 50;
/** the worker's own routes: everything it sends to deliver an order (not the catalog pull, which runs on its own timer) */
const DELIVERY_ROUTE = /^(POST|GET|PATCH) \/(carts|orders)/;
/** the shipped defaults of `serve`: no --sync-retry-ms, an idle worker looks every second */
const DEFAULTS = { retryBaseMs: 1000, pollMs: 1000 } as const;

describe.each(UPSTREAMS)('a flaky line to the upstream ($kind), at the default retry settings', ({ kind }) => {
  it(`delivers ${ORDERS} orders exactly once within 90 s through 503s, 429s with Retry-After and lost answers`, async () => {
    const pair = await startPair({
      kind,
      // A seed under which the first four imports to a hub meet a lost answer, a 503 and a 429 (each route
      // draws its own stream, so a hub's few requests meet every fault whatever the timing).
      proxy: { seed: 20_240_871, rates: { serviceUnavailable: 0.2, tooMany: 0.1, loseAfterForward: 0.05 } },
      // A plain v3 service: a lost answer to POST /carts leaves an orphan hold there until it lapses; the
      // upstream's short hold (an upstream setting, not the terminal's) lets the box-seat orders wait it out.
      ...(kind === 'v3' && { upstream: { holdSeconds: 5 } }),
      sync: { ...DEFAULTS, pullIntervalMs: 60_000 },
    });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;

    // Selling and syncing at the same time, as a kiosk does.
    const started = Date.now();
    // A kiosk sells over time: to a hub, which takes waiting orders in batches, the sales come in waves, each
    // after the last one's import went out, so the hub sees several imports (the seed's faults) however fast
    // this machine sells.
    const local = kind === 'v3' ? await sellMany(kiosk, ORDERS) : [];
    for (let wave = 0; kind === 'hub' && wave < 5; wave++) {
      const imports = proxy.events.filter((event) => event.route === orderRoute(kind)).length;
      local.push(...(await sellMany(kiosk, ORDERS / 5, wave * (ORDERS / 5))));
      await waitUntil(() => proxy.events.filter((event) => event.route === orderRoute(kind)).length > imports, 30_000, `wave ${wave}'s import`);
    }
    const synced = await waitForSynced(kiosk, 90_000 - (Date.now() - started));
    const took = Date.now() - started;
    expect(took).toBeLessThan(90_000);
    expect(synced).toMatchObject({ waiting: 0, conflicts: [], upstreamKind: kind });

    const imported = await expectArrivedExactlyOnce(upstream, local);
    expectOutboxDelivered(kiosk.dataDir, local, imported);
    expect(soldOf(upstream.dataDir)).toEqual(soldOf(kiosk.dataDir));

    // The faults really happened, on the route that carries the orders.
    const { counters } = proxy;
    const route = orderRoute(kind);
    expect(counters.byRoute[`serviceUnavailable ${route}`] ?? 0).toBeGreaterThan(0);
    expect(counters.byRoute[`tooMany ${route}`] ?? 0).toBeGreaterThan(0);
    // Some lost answers were orders the upstream had made — the case exactly-once is about.
    const createdStatus = kind === 'hub' ? 200 : 201;
    expect(proxy.events.filter((event) => event.kind === 'lost' && event.route === route && event.status === createdStatus).length).toBeGreaterThan(0);
    if (kind === 'v3') expect(counters.byRoute['lost POST /carts'] ?? 0).toBeGreaterThan(0);

    // Retry-After was honoured: the refused request itself was not sent again for that second, and the
    // whole worker paused — what other deliveries sent meanwhile is what was on its way before the kiosk read
    // the 429: up to four deliveries run alongside, so each of the three others may have one request on the
    // wire and, on a loaded machine, send one more on an answer it reads before the 429 (a worker that did not
    // pause sends dozens in that second).
    const delivery = proxy.events.filter((event) => DELIVERY_ROUTE.test(event.route));
    const limited = delivery.filter((event) => event.kind === 'tooMany');
    expect(limited.length).toBeGreaterThan(0);
    for (const event of limited) {
      // (POST /carts bodies of different orders may be equal: only requests that name what they are about count)
      const named = event.route !== 'POST /carts';
      const again = delivery.find((other) => named && other.receivedAt > event.receivedAt && other.path === event.path && other.method === event.method && other.identity === event.identity);
      if (again) expect(again.receivedAt - event.at, `${event.route} sent again after its 429`).toBeGreaterThanOrEqual(950);
      const during = delivery.filter((other) => other.receivedAt > event.at && other.receivedAt < event.at + 950);
      expect(during.length, `requests within a second of the 429 at ${event.at}`).toBeLessThanOrEqual(6);
    }
  }, 120_000);
});

describe('an answer lost on the way back', () => {
  it('to a plain v3 POST /carts: the box-seat order waits out its own orphan hold instead of being refused for it', async () => {
    // Deterministic form of what the 5 % above meets by chance: the upstream creates the cart (and holds the
    // one seat), the answer never reaches the kiosk, the kiosk asks for a new cart for the same seat.
    const pair = await startPair({ kind: 'v3', proxy: { seed: 7, down: true }, upstream: { holdSeconds: 2 } });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;
    const local = [await sellItem(kiosk, 'B3', FEST.boxes.priceOptionId)];

    proxy.setRates({ loseAfterForward: 1 }, { method: 'POST', path: /^\/api\/v3\/carts$/ });
    proxy.onEvent((event) => {
      if (event.kind === 'lost') proxy.heal(); // only the first cart's answer is lost
    });
    proxy.setDown(false);

    await waitForSynced(kiosk, 30_000);
    expect(proxy.counters.byRoute['lost POST /carts']).toBe(1);
    expect(proxy.counters.upstreamStatus['POST /carts 201']).toBeGreaterThanOrEqual(1);
    // Delivered once the orphan hold is out of the way (it expires after 2 s here). The seat was free when
    // the kiosk sold it; only the sync's own lost request holds it upstream.
    expect((await syncStatus(kiosk)).conflicts).toEqual([]);
    await expectArrivedExactlyOnce(upstream, local);
    expect(soldOf(upstream.dataDir)).toEqual({ B3: 1 });
  }, 60_000);

  it("to a hub's import: sent again, answered with the same order, and no hold is left behind", async () => {
    // The hub's default hold (15 minutes) stays: a hub import leaves no hold to wait out.
    const pair = await startPair({ kind: 'hub', proxy: { seed: 7, down: true } });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;
    const local = [await sellItem(kiosk, 'B3', FEST.boxes.priceOptionId)];

    proxy.setRates({ loseAfterForward: 1 }, { method: 'POST', path: /^\/api\/v3\/orders\/import$/ });
    proxy.onEvent((event) => {
      if (event.kind === 'lost') proxy.heal();
    });
    proxy.setDown(false);

    await waitForSynced(kiosk, 30_000);
    expect(proxy.events.filter((event) => event.route === 'POST /orders/import').map((event) => [event.kind, event.status])).toEqual([
      ['lost', 200],
      ['relayed', 200],
    ]);
    expect((await syncStatus(kiosk)).conflicts).toEqual([]);
    await expectArrivedExactlyOnce(upstream, local);
    expect(soldOf(upstream.dataDir)).toEqual({ B3: 1 });
    expect(proxy.counters.byRoute['relayed POST /carts'] ?? 0).toBe(0);
  }, 60_000);
});
