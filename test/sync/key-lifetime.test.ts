import { afterEach, describe, expect, it } from 'vitest';
import {
  UPSTREAMS,
  allOrders,
  expectArrivedExactlyOnce,
  expectOutboxDelivered,
  importedOrders,
  outboxOf,
  readonlyDb,
  sellMany,
  startPair,
  syncStatus,
  waitForSynced,
  orderRoute,
  waitUntil,
  type SyncPair,
} from './harness';

/**
 * Done when #4: an order kept offline past the 24-hour idempotency-key lifetime syncs exactly once.
 *
 * The checkout reaches the upstream and is carried out, but its answer is lost; the line then stays down
 * while both clocks move 25 hours on. The upstream now treats the entry's Idempotency-Key as never seen, so
 * only the upstream cart (recorded before checkout, now CART_ALREADY_ORDERED) can tell the kiosk that the
 * order is already there.
 */

const pairs: SyncPair[] = [];
afterEach(async () => {
  await Promise.all(pairs.splice(0).map((pair) => pair.close()));
});

const HOUR = 3_600_000;

describe.each(UPSTREAMS)('an order kept offline past the idempotency-key lifetime ($kind)', ({ kind }) => {
  it(`syncs exactly once after 25 hours, settled by ${kind === 'hub' ? "the hub's lasting import record" : 'CART_ALREADY_ORDERED'}`, async () => {
    let shift = 0;
    const now = () => Date.now() + shift;
    const pair = await startPair({
      kind,
      proxy: { seed: 24, down: true },
      // holdSeconds: the upstream cart must not simply have expired after 25 h
      upstream: { now, holdSeconds: 200_000 },
      kiosk: { now },
    });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;

    const local = await sellMany(kiosk, 3, 1);

    // The first checkout's answer (to a hub: the first import's) is lost; the line goes down again at that very moment.
    proxy.setRates({ loseAfterForward: 1 }, { method: 'POST', path: kind === 'hub' ? /^\/api\/v3\/orders\/import$/ : /^\/api\/v3\/orders$/ });
    proxy.onEvent((event) => {
      if (event.kind === 'lost') proxy.setDown(true);
    });
    proxy.setDown(false);
    // (deliveries run alongside each other: more than one answer may be lost before the line goes down)
    await waitUntil(() => proxy.counters.lost >= 1, 60_000, 'the first checkout answer to be lost');
    expect(proxy.events.find((event) => event.kind === 'lost')).toMatchObject({ route: orderRoute(kind), status: kind === 'hub' ? 200 : 201 });

    // The upstream has the order (a hub: the whole batch of the lost import; a plain v3 service may also
    // have checkouts that ran alongside and were answered); the kiosk does not know of the lost one.
    const before = importedOrders(await allOrders(upstream));
    const references = before.map((order) => order.payment.reference);
    expect(references.every((reference) => local.some((order) => order.id === reference))).toBe(true);
    const pending = outboxOf(kiosk.dataDir).filter((entry) => entry.state === 'pending');
    const limbo = pending.filter((entry) => references.includes(entry.orderId));
    // (checkouts running alongside the first were lost the same way: each is one order in limbo)
    expect(limbo.length).toBe(kind === 'hub' ? references.length : proxy.counters.lost);
    expect(limbo.length).toBeGreaterThanOrEqual(1);
    const [entry] = limbo;
    expect(entry).toMatchObject({ state: 'pending', upstreamOrderId: null });
    const cartId = entry?.upstreamCartId;
    if (kind === 'hub') expect(cartId).toBeNull(); // no cart upstream at all
    else if (typeof cartId !== 'string') throw new Error(`no upstream cart recorded: ${JSON.stringify(entry)}`);
    expect((await syncStatus(kiosk)).waiting).toBe(pending.length);

    // 25 hours on, still offline, on both sides.
    const refusedBefore = proxy.counters.down;
    shift = 25 * HOUR;
    await waitUntil(() => proxy.counters.down >= refusedBefore + 3, 20_000, 'three more failed attempts at the new time');
    const keys = readonlyDb(upstream.dataDir, (db) => db.prepare<[], { created_at: number; state: string }>('SELECT created_at, state FROM idempotency_keys').all());
    expect(keys).toHaveLength(before.length);
    for (const key of keys) {
      expect(key.state).toBe('completed');
      expect(now() - key.created_at).toBeGreaterThan(24 * HOUR); // past its lifetime: the upstream treats it as new
    }

    // The line comes back.
    proxy.onEvent(undefined);
    const healedAt = Date.now();
    proxy.heal();
    const synced = await waitForSynced(kiosk, 30_000);
    expect(synced).toMatchObject({ waiting: 0, conflicts: [], online: true });

    const imported = await expectArrivedExactlyOnce(upstream, local);
    expectOutboxDelivered(kiosk.dataDir, local, imported);
    for (const order of before) expect(imported.find((arrived) => arrived.payment.reference === order.payment.reference)?.id).toBe(order.id);
    if (kind === 'hub') {
      // How it was settled: the hub keeps its imports for good and answered the repeat with the same orders.
      const imports = readonlyDb(upstream.dataDir, (db) => db.prepare<[], { reference: string; order_id: string }>('SELECT reference, order_id FROM order_imports').all());
      expect(imports.map((row) => row.reference).sort()).toEqual(local.map((order) => order.id).sort());
      for (const order of before) expect(imports.find((row) => row.reference === order.payment.reference)?.order_id).toBe(order.id);
      expect(proxy.events.filter((event) => event.at >= healedAt && event.route === 'POST /orders/import' && event.status === 200).length).toBeGreaterThanOrEqual(1);
    } else {
      // How it was settled: the upstream answered 409 about that cart (CART_ALREADY_ORDERED), no second checkout.
      const settling = proxy.events.filter((event) => event.at >= healedAt && event.status === 409 && (event.path.includes(cartId ?? '') || event.route === 'POST /orders'));
      expect(settling.length).toBeGreaterThanOrEqual(1);
      expect(proxy.counters.upstreamStatus['POST /orders 201']).toBe(3);
    }
  }, 60_000);
});
