import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../engine/contract/order';
import type { PrintJob } from '../../engine/contract/printing';
import { openDatabase } from '../../engine/store/db';
import { createKeyRepo } from '../../engine/store/key-repo';
import { decodeEscPos } from '../helpers/escpos-decode';
import { startFakePrinter, type FakePrinter } from '../helpers/fake-printer';
import { sleep } from '../helpers/orders';
import { kill, startServe, type ServeProcess } from '../helpers/serve-process';

/**
 * `serve --printer` as a real process, SIGKILLed (no clean shutdown) with a print job in the queue: after a
 * restart the job prints exactly once. A job the kill caught on its way to the printer is failed, not resent.
 */

const running: ServeProcess[] = [];
const printers: FakePrinter[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((proc) => kill(proc, 'SIGKILL')));
  await Promise.all(printers.splice(0).map((printer) => printer.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function call<T>(base: string, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${base}/api/v3${path}`, {
    method,
    headers: { 'x-svc-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }), ...(path === '/orders' && { 'idempotency-key': crypto.randomUUID() }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function setUp(): Promise<{ dataDir: string; key: string; printer: FakePrinter }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kassa-print-crash-'));
  dirs.push(dataDir);
  const db = openDatabase(dataDir);
  const key = createKeyRepo(db).create('till', ['admin']).key;
  db.close();
  const printer = await startFakePrinter();
  printers.push(printer);
  return { dataDir, key, printer };
}

async function sale(base: string, key: string): Promise<Order> {
  const cart = await call<{ data: { id: string; total: unknown } }>(base, key, 'POST', '/carts', {
    items: [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 2 }],
  });
  expect(cart.status).toBe(201);
  const order = await call<{ data: Order }>(base, key, 'POST', '/orders', { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'card', token: 'tok_visa' } });
  expect(order.status).toBe(201);
  return order.body.data;
}

async function waitForState(base: string, key: string, jobId: string, state: PrintJob['state'], timeoutMs: number): Promise<PrintJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await call<{ data: PrintJob }>(base, key, 'GET', `/print-jobs/${jobId}`);
    if (answer.body.data.state === state) return answer.body.data;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is ${JSON.stringify(answer.body.data)}, not ${state}`);
    await sleep(100);
  }
}

describe('print jobs across a crash of the engine', () => {
  it('a queued job (printer off) survives SIGKILL and prints exactly once after the restart', async () => {
    const { dataDir, key, printer } = await setUp();
    await printer.off();
    const first = await startServe(['--data', dataDir, '--rate-limit', '0', '--printer', printer.url]);
    running.push(first);
    const order = await sale(first.url, key);
    const queued = await call<{ data: PrintJob }>(first.url, key, 'POST', `/orders/${order.id}/print`, {});
    expect(queued.status).toBe(202);
    const job = queued.body.data;
    const deadline = Date.now() + 10_000;
    while ((await call<{ data: PrintJob }>(first.url, key, 'GET', `/print-jobs/${job.id}`)).body.data.reason === undefined) {
      if (Date.now() > deadline) throw new Error('the job never tried the printer');
      await sleep(100);
    }
    expect(await kill(first, 'SIGKILL')).toBeNull();

    await printer.on();
    const second = await startServe(['--data', dataDir, '--rate-limit', '0', '--printer', printer.url]);
    running.push(second);
    const done = await waitForState(second.url, key, job.id, 'done', 15_000);
    expect(done.code).toBe(job.code);
    // exactly once: another order's tickets print after it, and the printer has those two jobs, nothing more
    const next = await sale(second.url, key);
    const nextJob = (await call<{ data: PrintJob }>(second.url, key, 'POST', `/orders/${next.id}/print`, {})).body.data;
    await waitForState(second.url, key, nextJob.id, 'done', 15_000);
    // the QR of a ticket is its signed code (issue #26)
    const qrOf = (bytes: Buffer | undefined) => decodeEscPos(bytes ?? Buffer.alloc(0)).filter((event) => event.kind === 'qr');
    expect(printer.jobs).toHaveLength(2);
    expect(qrOf(printer.jobs[0])).toEqual(order.tickets.map((ticket) => ({ kind: 'qr', data: ticket.signedCode ?? ticket.code })));
    expect(qrOf(printer.jobs[1])).toEqual(next.tickets.map((ticket) => ({ kind: 'qr', data: ticket.signedCode ?? ticket.code })));
  }, 60_000);

  it('a job SIGKILL caught while printing is failed after the restart (may be on paper), never resent', async () => {
    const { dataDir, key, printer } = await setUp();
    printer.mode = 'stall';
    const first = await startServe(['--data', dataDir, '--rate-limit', '0', '--printer', printer.url]);
    running.push(first);
    const order = await sale(first.url, key);
    const job = (await call<{ data: PrintJob }>(first.url, key, 'POST', `/orders/${order.id}/print`, {})).body.data;
    await waitForState(first.url, key, job.id, 'printing', 10_000);
    const connections = printer.connections;
    await kill(first, 'SIGKILL');

    printer.mode = 'print';
    const second = await startServe(['--data', dataDir, '--rate-limit', '0', '--printer', printer.url]);
    running.push(second);
    const failed = await waitForState(second.url, key, job.id, 'failed', 10_000);
    expect(failed.reason).toMatch(/interrupted/);
    // never resent: another order's tickets print after it, and they are all the printer got
    const next = await sale(second.url, key);
    const nextJob = (await call<{ data: PrintJob }>(second.url, key, 'POST', `/orders/${next.id}/print`, {})).body.data;
    await waitForState(second.url, key, nextJob.id, 'done', 15_000);
    expect(printer.jobs).toHaveLength(1);
    const qr = decodeEscPos(printer.jobs[0] ?? Buffer.alloc(0)).filter((event) => event.kind === 'qr');
    expect(qr).toEqual(next.tickets.map((ticket) => ({ kind: 'qr', data: ticket.signedCode ?? ticket.code })));
    expect(printer.connections).toBeLessThanOrEqual(connections + 2); // at most the restarted engine's probe, and the new job
  }, 60_000);
});
