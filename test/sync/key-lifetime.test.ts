import { afterEach, describe, expect, it } from 'vitest';
import {
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

describe('an order kept offline past the idempotency-key lifetime', () => {
  it('syncs exactly once after 25 hours, settled by CART_ALREADY_ORDERED', async () => {
    let shift = 0;
    const now = () => Date.now() + shift;
    const pair = await startPair({
      proxy: { seed: 24, down: true },
      // holdSeconds: the upstream cart must not simply have expired after 25 h
      upstream: { now, holdSeconds: 200_000 },
      kiosk: { now },
    });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;

    const local = await sellMany(kiosk, 3, 1);
    const first = local[0];
    if (!first) throw new Error('no order sold');

    // The first checkout's answer is lost; the line goes down again at that very moment.
    proxy.setRates({ loseAfterForward: 1 }, { method: 'POST', path: /^\/api\/v3\/orders$/ });
    proxy.onEvent((event) => {
      if (event.kind === 'lost') proxy.setDown(true);
    });
    proxy.setDown(false);
    await waitUntil(() => proxy.counters.lost === 1, 15_000, 'the first checkout answer to be lost');
    expect(proxy.events.find((event) => event.kind === 'lost')).toMatchObject({ route: 'POST /orders', status: 201 });

    // The upstream has the order; the kiosk does not know it.
    const before = importedOrders(await allOrders(upstream));
    expect(before.map((order) => order.payment.reference)).toEqual([first.id]);
    const entry = outboxOf(kiosk.dataDir)[0];
    expect(entry).toMatchObject({ orderId: first.id, state: 'pending', upstreamOrderId: null });
    const cartId = entry?.upstreamCartId;
    if (typeof cartId !== 'string') throw new Error(`no upstream cart recorded: ${JSON.stringify(entry)}`);
    expect((await syncStatus(kiosk)).waiting).toBe(3);

    // 25 hours on, still offline, on both sides.
    shift = 25 * HOUR;
    await new Promise((resolve) => setTimeout(resolve, 200)); // a few more failed attempts at the new time
    const keys = readonlyDb(upstream.dataDir, (db) => db.prepare<[], { created_at: number; state: string }>('SELECT created_at, state FROM idempotency_keys').all());
    expect(keys).toHaveLength(1);
    const [key] = keys;
    expect(key?.state).toBe('completed');
    expect(now() - (key?.created_at ?? now())).toBeGreaterThan(24 * HOUR); // past its lifetime: the upstream treats it as new

    // The line comes back.
    proxy.onEvent(undefined);
    const healedAt = Date.now();
    proxy.heal();
    const synced = await waitForSynced(kiosk, 30_000);
    expect(synced).toMatchObject({ waiting: 0, conflicts: [], online: true });

    const imported = await expectArrivedExactlyOnce(upstream, local);
    expectOutboxDelivered(kiosk.dataDir, local, imported);
    expect(imported.find((order) => order.payment.reference === first.id)?.id).toBe(before[0]?.id);
    // How it was settled: the upstream answered 409 about that cart (CART_ALREADY_ORDERED), no second checkout.
    const settling = proxy.events.filter((event) => event.at >= healedAt && event.status === 409 && (event.path.includes(cartId) || event.route === 'POST /orders'));
    expect(settling.length).toBeGreaterThanOrEqual(1);
    expect(proxy.counters.upstreamStatus['POST /orders 201']).toBe(3);
  }, 60_000);
});
