import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { GATHER_MS, type Woken } from '../../engine/sync/worker';
import { ALLOC } from '../fixtures/allocation-catalog';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { sellAt, startHub, waitForSellable } from './allocation-helpers';
import {
  SYNC_SCOPES,
  allOrders,
  expectArrivedExactlyOnce,
  importedOrders,
  readonlyDb,
  sell,
  sleep,
  startPair,
  waitForStatus,
  waitForSynced,
  waitUntil,
  type Order,
} from './harness';

/**
 * When an order goes upstream, at the shipped defaults (issue #11: a terminal's sale should cost what a
 * standalone engine's does). A sale on an idle terminal goes at once — the sale wakes the worker, which does
 * not wait for its next look. Under a steady stream of sales, the orders made while one import is on its way
 * gather into the next: to a hub, imports that are not full start at least GATHER_MS apart, so that the
 * bookkeeping of a delivery is paid per batch, not per sale, and no order waits much longer than that.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** the shipped defaults of `serve`: no --sync-retry-ms, an idle worker looks every second */
const DEFAULTS = { retryBaseMs: 1000, pollMs: 1000, pullIntervalMs: 60_000 } as const;
/** Lone sales in a row, each after an idle spell. */
const LONE_SALES = 5;
/** Idle: nothing sold and nothing sent for longer than the gathering window. */
const IDLE_MS = GATHER_MS + 300;

interface DeliveryStart {
  orders: string[];
  woken: Woken;
  /** when the worker started it (the log line's time, ms) */
  time: number;
}

/**
 * A terminal's logger at debug level, and the deliveries its sync worker started, read from its log: each with
 * its orders and what ended the worker's wait before the look that started it (engine/sync/worker.ts `Woken`).
 */
function deliveryLog() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const starts = (): DeliveryStart[] =>
    lines.map((line) => JSON.parse(line) as { msg?: string } & Partial<DeliveryStart>).flatMap(({ msg, orders, woken, time }) =>
      msg === 'sync delivery started' && orders && woken && time !== undefined ? [{ orders, woken, time }] : []);
  return { logger: pino({ level: 'debug' }, sink), starts };
}

/**
 * Each lone sale went by its own wake-up: the delivery that took its order was started by the look the sale
 * itself woke at once (`added`) — not by the idle worker's look once a second (`timer`), nor at the end of a
 * gathering window (`paced`). This is what fails when the wake-up breaks, and it is told by the worker, not by
 * the clock of a shared machine.
 */
function expectWokenBySale(starts: readonly DeliveryStart[], orders: readonly Order[]): void {
  for (const [n, order] of orders.entries()) {
    const taken = starts.filter((start) => start.orders.includes(order.id));
    expect(taken.map((start) => start.woken), `lone sale ${n} (${order.id}): what started its deliveries`).toEqual(['added']);
  }
}

/**
 * And it went soon. Not how the wake-up is proven (the worker's word above is), only a bound for a delivery held
 * for a whole idle look or more after the wake (a delay in the delivery itself): the median of the five under the
 * shipped idle look, `pollMs`, one second — measured: a few ms to tens of ms; the median is over a second only if
 * three of five sales meet a stall of a second of the shared machine.
 */
function expectSoon(latencies: readonly number[], what: string): void {
  const sorted = [...latencies].sort((a, b) => a - b);
  expect(sorted[Math.floor(sorted.length / 2)], `${what}: ${latencies.join(', ')}`).toBeLessThan(DEFAULTS.pollMs);
}

/** A hub with allocations and a terminal of it behind a proxy, as a venue runs them, at the defaults. */
async function hubAndTerminal(seed: number, logger?: pino.Logger): Promise<{ hub: TestEngine; terminal: TestEngine; proxy: FaultProxy }> {
  const { hub, catalogPath, remove } = await startHub({ floor: 1000, seats: 1 });
  cleanups.push(remove, () => hub.close());
  const proxy = await startFaultProxy({ target: hub.url, seed });
  cleanups.push(() => proxy.close());
  const terminal = await startTestEngine({ catalogFile: catalogPath, demo: false, allocation: 100, upstream: { url: proxy.url, key: await hub.createKey(SYNC_SCOPES), ...DEFAULTS }, ...(logger && { logger }) });
  cleanups.push(() => terminal.close());
  // The places in hand: no sale of these tests asks the hub for places within its request.
  await waitForSellable(terminal, ALLOC.floor.inventoryItemId, (n) => n >= 100, 15_000);
  return { hub, terminal, proxy };
}

const requestsTo = (proxy: FaultProxy, route: string) => proxy.events.filter((event) => event.route === route);

async function sellOne(terminal: TestEngine): Promise<Order> {
  const sold = await sellAt(terminal, ALLOC.floor.inventoryItemId, 1);
  if (!('order' in sold)) throw new Error(`the sale was refused: ${JSON.stringify(sold.refusal.body)}`);
  return sold.order;
}

/** Sells one order after an idle spell, `count` times; answers the orders and how long after each sale's answer its delivery reached the proxy. */
async function loneSales(count: number, proxy: FaultProxy, route: string, sale: (n: number) => Promise<Order>, synced: () => Promise<unknown>) {
  const orders: Order[] = [];
  const latencies: number[] = [];
  for (let n = 0; n < count; n++) {
    await sleep(IDLE_MS);
    const before = requestsTo(proxy, route).length;
    orders.push(await sale(n));
    const soldAt = Date.now();
    await waitUntil(() => requestsTo(proxy, route).length > before, 5_000, `lone sale ${n}: its delivery`);
    latencies.push((requestsTo(proxy, route)[before]?.receivedAt ?? Number.NaN) - soldAt);
    await synced();
  }
  return { orders, latencies };
}

describe('a lone sale on an idle terminal', () => {
  it(`of a hub goes at once: its import is started by the sale's own wake-up, not at the worker's next look (${LONE_SALES} sales)`, async () => {
    const log = deliveryLog();
    const { hub, terminal, proxy } = await hubAndTerminal(31, log.logger);
    const { orders, latencies } = await loneSales(LONE_SALES, proxy, 'POST /orders/import', () => sellOne(terminal), () => waitForSynced(terminal, 10_000));
    expectWokenBySale(log.starts(), orders);
    expectSoon(latencies, "ms from each sale's answer to its import");
    await expectArrivedExactlyOnce(hub, orders);
  }, 60_000);

  it(`of a plain v3 service goes at once: its checkout there is started by the sale's own wake-up (${LONE_SALES} sales)`, async () => {
    const log = deliveryLog();
    const pair = await startPair({ kind: 'v3', proxy: { seed: 32 }, sync: DEFAULTS, kiosk: { logger: log.logger } });
    cleanups.push(() => pair.close());
    await waitForStatus(pair.kiosk, (status) => status.upstreamKind === 'v3', 10_000, 'the upstream known');
    // (online, each cart is held upstream as it is made: the delivery is the checkout there)
    const { orders, latencies } = await loneSales(LONE_SALES, pair.proxy, 'POST /orders', (n) => sell(pair.kiosk, n, { seats: false }), () => waitForSynced(pair.kiosk, 10_000));
    expectWokenBySale(log.starts(), orders);
    expectSoon(latencies, "ms from each sale's answer to its checkout upstream");
    await expectArrivedExactlyOnce(pair.upstream, orders);
  }, 60_000);
});

describe('a steady stream of sales on a terminal of a hub', () => {
  it(`gathers into imports at least ${GATHER_MS} ms apart: far fewer imports than sales, each order upstream soon, once, in the order made`, async () => {
    const log = deliveryLog();
    const { hub, terminal, proxy } = await hubAndTerminal(33, log.logger);
    await sleep(IDLE_MS);
    const startsBefore = log.starts().length;

    // One till selling as fast as it can, one sale after the other.
    const SALES = 40;
    const before = requestsTo(proxy, 'POST /orders/import').length;
    const started = Date.now();
    const local: Order[] = [];
    for (let i = 0; i < SALES; i++) local.push(await sellOne(terminal));
    const selling = Date.now() - started;
    await waitForSynced(terminal, 30_000);

    const imports = requestsTo(proxy, 'POST /orders/import').slice(before);
    const starts = log.starts().slice(startsBefore);
    // the window is the worker's: between the starts of two imports, as the terminal started them (the hub hears
    // of each a commit and a send later, which on a loaded machine varies by hundreds of ms: not the engine's gap)
    const gaps = starts.slice(1).map((start, i) => start.time - (starts[i]?.time ?? 0));
    const arrivals = imports.slice(1).map((event, i) => event.receivedAt - (imports[i]?.receivedAt ?? 0));
    const seen = `${SALES} sales in ${selling} ms, ${starts.length} imports started, ms between them: ${gaps.join(', ')}; ${imports.length} arrived, ms between them: ${arrivals.join(', ')}`;
    expect(imports.length, seen).toBeGreaterThanOrEqual(1);
    expect(starts.length, seen).toBeGreaterThanOrEqual(1);
    // The first sale went at once; each import after it waited for the window (the worker's look that starts it
    // comes a few ms of work before its log line: half the window tells a window from none).
    console.log(seen);
    expect(gaps.every((ms) => ms >= GATHER_MS / 2), seen).toBe(true);
    expect(imports.length, seen).toBeLessThanOrEqual(Math.ceil(selling / GATHER_MS) + 2);
    expect(imports.length, seen).toBeLessThan(SALES);
    // Every order went by import (none by the cart flow).
    expect(requestsTo(proxy, 'POST /orders')).toEqual([]);

    // No order waited much longer than the window: from its sale to its delivery, by the terminal's outbox.
    const waits = readonlyDb(terminal.dataDir, (db) =>
      db.prepare<[], { ms: number }>("SELECT delivered_at - created_at AS ms FROM outbox WHERE kind = 'order' ORDER BY id").all().map((row) => row.ms),
    );
    expect(waits).toHaveLength(SALES);
    expect(Math.max(...waits), `ms from sale to delivery: ${waits.join(', ')}`).toBeLessThan(GATHER_MS + 1_000);

    // Exactly once, and in the order made (the hub lists its newest first).
    await expectArrivedExactlyOnce(hub, local);
    expect(importedOrders(await allOrders(hub)).reverse().map((order) => order.payment.reference)).toEqual(local.map((order) => order.id));
  }, 60_000);
});
