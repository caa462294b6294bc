import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { decodeEscPos, textOf } from '../helpers/escpos-decode';
import { startFakePrinter, type FakePrinter } from '../helpers/fake-printer';
import { placeOrder, type Order } from '../helpers/orders';
import { jobOf, print, printers, waitForJob } from '../helpers/printing';

/** One worker per printer: jobs print one at a time in the order queued, and a printer that is down holds up no other. */

describe('two printers', () => {
  let tickets: FakePrinter;
  let receipts: FakePrinter;
  let engine: TestEngine;
  beforeAll(async () => {
    tickets = await startFakePrinter();
    receipts = await startFakePrinter({ paperQuery: '?paper=58' });
    engine = await startTestEngine({ printers: [tickets.url, receipts.url] });
  });
  afterAll(async () => {
    await engine.close();
    await tickets.close();
    await receipts.close();
  });

  async function sale(): Promise<Order> {
    const cart = await createCart(engine, [concert(1)]);
    return placeOrder(engine, cart.id, cart.total);
  }

  it('prints one order after the other in the order queued', async () => {
    const orders = [await sale(), await sale(), await sale()];
    const jobs = [];
    for (const order of orders) jobs.push((await print(engine, order.id, { what: 'tickets' })).job);
    for (const job of jobs) await waitForJob(engine, job.id, (current) => current.state === 'done');
    const printed = tickets.jobs.slice(-3).map((bytes) => decodeEscPos(bytes).find((event) => event.kind === 'qr'));
    expect(printed).toEqual(orders.map((order) => ({ kind: 'qr', data: order.tickets[0]?.signedCode ?? order.tickets[0]?.code })));
  });

  it('sends a job to the printer it names; one printer down holds up nothing on the other', async () => {
    await receipts.off();
    const order = await sale();
    const stuck = (await print(engine, order.id, { what: 'receipt', printer: receipts.url })).job;
    await waitForJob(engine, stuck.id, (job) => job.reason !== undefined);
    const printedBefore = tickets.jobs.length;
    const other = (await print(engine, order.id, { what: 'tickets' })).job;
    expect(other.printer).toBe(tickets.url);
    await waitForJob(engine, other.id, (job) => job.state === 'done');
    expect(tickets.jobs).toHaveLength(printedBefore + 1);
    expect((await jobOf(engine, stuck.id)).state).toBe('queued');
    expect(await printers(engine)).toMatchObject([
      { id: tickets.url, state: 'ready', queued: 0 },
      { id: receipts.url, state: 'down', queued: 1 },
    ]);
    await receipts.on();
    await waitForJob(engine, stuck.id, (job) => job.state === 'done', 40_000);
    // sent once: a later job to the same printer goes through after it, and the printer has the two, nothing more
    const later = (await print(engine, (await sale()).id, { what: 'receipt', printer: receipts.url })).job;
    await waitForJob(engine, later.id, (job) => job.state === 'done');
    expect(receipts.jobs).toHaveLength(2);
    // the 58 mm printer got 32-column text
    const lines = textOf(decodeEscPos(receipts.jobs[0] ?? Buffer.alloc(0))).split('\n');
    expect(lines.some((line) => /^Total\s+€39\.00$/.test(line))).toBe(true);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(32);
  }, 60_000);
});

describe('stopping the engine', () => {
  it('does not wait out a printer\'s backoff: close is prompt and the job stays queued for the next start', async () => {
    const printer = await startFakePrinter();
    await printer.off();
    const dataDir = mkdtempSync(join(tmpdir(), 'kassa-print-stop-'));
    const engine = await startTestEngine({ printers: [printer.url], dataDir });
    const cart = await createCart(engine, [concert(1)]);
    const order = await placeOrder(engine, cart.id, cart.total);
    const { job } = await print(engine, order.id);
    await waitForJob(engine, job.id, (current) => current.attempts >= 2 && current.state === 'queued', 10_000); // now in the 4 s wait
    const started = Date.now();
    await engine.close();
    expect(Date.now() - started).toBeLessThan(1_500);

    await printer.on();
    const again = await startTestEngine({ printers: [printer.url], dataDir });
    try {
      await waitForJob(again, job.id, (current) => current.state === 'done', 10_000);
      expect(printer.jobs).toHaveLength(1);
    } finally {
      await again.close();
      await printer.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
