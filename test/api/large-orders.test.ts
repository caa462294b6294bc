import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../engine/domain/limits';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { decodeEscPos } from '../helpers/escpos-decode';
import { startFakePrinter, type FakePrinter } from '../helpers/fake-printer';
import { describeSeen, fieldLines, largeFieldCatalog, totalOf, whileResponsive, type Responsiveness } from '../helpers/large-orders';
import { print, waitForJob } from '../helpers/printing';
import type { Order } from '../sync/harness';

/**
 * One large order must not freeze the engine (issue #22): while an order of the most tickets an order may hold
 * is printed, while its PDF is rendered, and while a hub imports a batch of such orders, GET /health — polled
 * every ~20 ms over the real HTTP server — keeps answering, and the event loop (the test's own: the engine runs
 * in this process) is never held for long. All at the shipped defaults.
 *
 * Bounds: the engine gives the loop a turn every ~15 ms of work. The tight check is on CPU: the most CPU time
 * the event loop's own thread spent between two ticks of a 5 ms timer — the longest stretch the loop worked
 * without a turn; ~35 ms on a quiet machine — stays under CPU_BOUND_MS whatever else the machine runs. (The
 * whole process's CPU, also reported, counts the garbage collector's helper threads beside the loop: a CI run
 * saw 168 ms of it in a 146 ms pause.) The wall-clock bounds (a health request's wait, the
 * gap between two answers, the loop's delay) leave room for a shared two-core machine, where an idle engine
 * already sees pauses of 100–400 ms while other processes hold the cores (with ~30 ms of CPU in them). The old
 * code held the loop for 0.5–40 s of CPU work.
 */

const MAX = LIMITS.maxTicketsPerOrder;
/** the longest a health request may wait (its gap to the one before: that plus the ~20 ms between polls) */
const HEALTH_BOUND_MS = 1_000;
/** the longest the event loop may be delayed, wall clock */
const LOOP_BOUND_MS = 1_000;
/** the most CPU time the loop may work without a turn */
const CPU_BOUND_MS = 150;
/** orders of MAX tickets in the hub's batch: before, one transaction of them held the loop for seconds */
const IMPORTED_ORDERS = 20;

let engine: TestEngine;
let printer: FakePrinter;
/** the desktop app's silent print of a system printer's page, as the engine hands it over */
const SYSTEM_PRINTER = 'system:Box office?paper=80';
const systemPages: string[] = [];
let order: Order;
const file = largeFieldCatalog((IMPORTED_ORDERS + 2) * MAX);

function expectResponsive(label: string, seen: Responsiveness): void {
  console.log(describeSeen(label, seen));
  expect(seen.polls, describeSeen(label, seen)).toBeGreaterThan(1);
  expect(seen.healthMaxMs, describeSeen(label, seen)).toBeLessThan(HEALTH_BOUND_MS);
  expect(seen.healthGapMs, describeSeen(label, seen)).toBeLessThan(HEALTH_BOUND_MS + 50);
  expect(seen.loopMaxMs, describeSeen(label, seen)).toBeLessThan(LOOP_BOUND_MS);
  expect(seen.timerGapMs, describeSeen(label, seen)).toBeLessThan(LOOP_BOUND_MS);
  expect(seen.cpuInPauseMs, describeSeen(label, seen)).toBeLessThan(CPU_BOUND_MS);
}

async function sell(count: number): Promise<Order> {
  const lines = fieldLines(count);
  const cart = await engine.request<{ data: { id: string; total: { amount: number; currency: string } } }>('POST', '/carts', { body: { items: lines } });
  expect(cart.status, JSON.stringify(cart.body).slice(0, 300)).toBe(201);
  expect(cart.body.data.total.amount).toBe(totalOf(lines));
  const placed = await engine.request<{ data: Order }>('POST', '/orders', {
    body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(placed.status, JSON.stringify(placed.body).slice(0, 300)).toBe(201);
  return placed.body.data;
}

const pdf = async (orderId: string, size: 'a4' | '80mm') => {
  const answer = await fetch(`${engine.url}/api/v3/orders/${orderId}/tickets.pdf?size=${size}`, { headers: { 'x-svc-api-key': engine.keys.ordersRead } });
  expect(answer.status).toBe(200);
  return Buffer.from(await answer.arrayBuffer());
};
const pages = (bytes: Buffer) => [...bytes.toString('latin1').matchAll(/\/Type \/Page\b/g)].length;

beforeAll(async () => {
  printer = await startFakePrinter();
  engine = await startTestEngine({
    catalogFile: file.path,
    demo: false,
    printers: [printer.url, SYSTEM_PRINTER],
    systemPrint: async (request) => {
      systemPages.push(request.html);
    },
  });
  order = await sell(MAX);
  expect(order.tickets).toHaveLength(MAX);
  // The encoder, pdfkit and qrcode load with the first ticket printed (a one-time cost, not the order's size):
  // a small order loads them before anything is measured.
  const small = await sell(2);
  await waitForJob(engine, (await print(engine, small.id)).job.id, (job) => job.state === 'done');
  await pdf(small.id, 'a4');
  await waitForJob(engine, (await print(engine, small.id, { printer: SYSTEM_PRINTER })).job.id, (job) => job.state === 'done');
  printer.jobs.length = 0;
  systemPages.length = 0;
}, 120_000);
afterAll(async () => {
  await engine.close();
  await printer.close();
  file.remove();
});

describe(`an order of ${MAX} tickets (the most an order may hold) leaves the engine responsive`, () => {
  it('while it is printed on an ESC/POS printer, in German: every ticket and the receipt arrive', async () => {
    const { result: job, seen } = await whileResponsive(engine, async () => {
      const { job: queued } = await print(engine, order.id, { what: 'all', language: 'de' });
      await printer.waitForJobs(1, 120_000);
      return waitForJob(engine, queued.id, (state) => state.state === 'done', 30_000);
    });
    expect(job.state).toBe('done');
    const cuts = decodeEscPos(printer.jobs[0] ?? Buffer.alloc(0)).filter((event) => event.kind === 'cut');
    expect(cuts).toHaveLength(MAX + 1);
    expectResponsive('print', seen);
  }, 180_000);

  it("while it is printed on a system printer (the desktop app's page): a page per ticket and the receipt", async () => {
    const { result: job, seen } = await whileResponsive(engine, async () => {
      const { job: queued } = await print(engine, order.id, { printer: SYSTEM_PRINTER });
      return waitForJob(engine, queued.id, (state) => state.state === 'done', 120_000);
    });
    expect(job.state).toBe('done');
    expect([...(systemPages[0] ?? '').matchAll(/<section>/g)]).toHaveLength(MAX + 1);
    expectResponsive('system printer', seen);
  }, 180_000);

  it.each(['a4', '80mm'] as const)('while its tickets PDF (%s) is rendered: every ticket on its page', async (size) => {
    const { result: bytes, seen } = await whileResponsive(engine, () => pdf(order.id, size));
    expect(pages(bytes)).toBe(size === 'a4' ? Math.ceil(MAX / 3) : MAX);
    expectResponsive(`pdf ${size}`, seen);
  }, 180_000);

  it(`while a hub imports ${IMPORTED_ORDERS} such orders in one batch: each one whole`, async () => {
    const importKey = await engine.createKey(['orders:import']);
    const orders = Array.from({ length: IMPORTED_ORDERS }, () => ({
      idempotencyKey: crypto.randomUUID(),
      reference: `ord_${crypto.randomUUID()}`,
      items: fieldLines(MAX),
      expectedTotal: { amount: totalOf(fieldLines(MAX)), currency: 'EUR' },
    }));
    // The engine shares this process's event loop with the test: the answer (megabytes of JSON) is read as bytes
    // while the loop is watched and parsed after, so the test's own JSON.parse is not counted as the engine's pause.
    const { result: raw, seen } = await whileResponsive(engine, async () => {
      const response = await fetch(`${engine.url}/api/v3/orders/import`, {
        method: 'POST',
        headers: { 'x-svc-api-key': importKey, 'content-type': 'application/json' },
        body: JSON.stringify({ orders }),
      });
      return { status: response.status, bytes: await response.arrayBuffer() };
    });
    const answer = { status: raw.status, body: JSON.parse(Buffer.from(raw.bytes).toString('utf8')) as { data: { results: { status: number; order?: Order }[] } } };
    expect(answer.status).toBe(200);
    expect(answer.body.data.results.map((result) => [result.status, result.order?.tickets.length])).toEqual(orders.map(() => [201, MAX]));
    expectResponsive('import', seen);
  }, 180_000);
});

describe('orders listed with large ones among them (after the import above)', () => {
  it(`pages hold at most ${MAX} tickets and the engine stays responsive while every page is read`, async () => {
    const { result: seenOrders, seen } = await whileResponsive(engine, async () => {
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await engine.request<{ data: Order[]; nextCursor?: string }>('GET', `/orders?limit=200${cursor === undefined ? '' : `&cursor=${cursor}`}`);
        expect(page.status).toBe(200);
        expect(page.body.data.length).toBeGreaterThan(0);
        expect(page.body.data.reduce((sum, listed) => sum + listed.tickets.length, 0)).toBeLessThanOrEqual(MAX);
        ids.push(...page.body.data.map((listed) => listed.id));
        cursor = page.body.nextCursor;
      } while (cursor !== undefined);
      return ids;
    });
    // every order once, newest first: the imported batch, the small sale, the large sale
    expect(new Set(seenOrders).size).toBe(seenOrders.length);
    expect(seenOrders.length).toBeGreaterThanOrEqual(IMPORTED_ORDERS + 2);
    expect(seenOrders.at(-1)).toBe(order.id);
    expectResponsive('list', seen);
  }, 180_000);
});

describe('a large job on a printer that takes it at printing speed', () => {
  it('prints whole at the shipped timeouts instead of failing as stalled after 15 s', async () => {
    const hundred = await sell(100);
    printer.jobs.length = 0;
    // ~40 KB read at 2 KB/s: some 20 s, as a printer with a full buffer prints it
    printer.readBytesPerSecond = 2_000;
    try {
      const { job } = await print(engine, hundred.id, { what: 'tickets' });
      const done = await waitForJob(engine, job.id, (state) => state.state !== 'queued' && state.state !== 'printing', 90_000);
      expect(done, JSON.stringify(done)).toMatchObject({ state: 'done', attempts: 1 });
      const bytes = printer.jobs[0] ?? Buffer.alloc(0);
      expect(bytes.length).toBeGreaterThan(15 * 2_000);
      expect(decodeEscPos(bytes).filter((event) => event.kind === 'cut')).toHaveLength(100);
    } finally {
      printer.readBytesPerSecond = undefined;
    }
  }, 120_000);
});
