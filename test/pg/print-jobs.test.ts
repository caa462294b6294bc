import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintJob } from '../../engine/contract/printing';
import { PRINTING_LEASE_MS } from '../../engine/printing/queue';
import { allocationCatalog } from '../fixtures/allocation-catalog';
import { decodeEscPos } from '../helpers/escpos-decode';
import { startFakePrinter, type FakePrinter } from '../helpers/fake-printer';
import { createTestDatabase, postgresAvailable, postgresSuite } from '../helpers/postgres';
import { kill } from '../helpers/serve-process';
import { floorCart, type Cart, type Order } from './buyers';
import { call, seedDatabase, startHub, type Hub } from './hub';

/**
 * Print jobs with several engine processes on one PostgreSQL database, all serving one printer (contract §12,
 * §16): a process that starts while another is sending a job leaves that job be (it used to fail every job
 * marked `printing` at its start, another live process's too); the job of a process killed while sending it is
 * failed by the others once nobody has touched it for the lease, and never resent. Shipped print defaults.
 */

let hub: Hub | undefined;
let printer: FakePrinter | undefined;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function running(): { hub: Hub; key: string; printer: FakePrinter } {
  const key = hub?.keys.get('till');
  if (!hub || !printer || key === undefined) throw new Error('not started');
  return { hub, key, printer };
}

/** an order of `tickets` tickets, sent to the printer */
async function printedOrder(h: Hub, at: number, key: string, tickets: number): Promise<{ order: Order; job: PrintJob }> {
  const cart = (await call<{ data: Cart }>(h, at, key, 'POST', '/carts', floorCart(tickets))).body.data;
  const order = (await call<{ data: Order }>(h, at, key, 'POST', '/orders', { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa' } }, { 'idempotency-key': randomUUID() })).body.data;
  const queued = await call<{ data: PrintJob }>(h, at, key, 'POST', `/orders/${order.id}/print`, {});
  expect(queued.status).toBe(202);
  return { order, job: queued.body.data };
}

async function jobState(h: Hub, at: number, key: string, id: string): Promise<PrintJob> {
  return (await call<{ data: PrintJob }>(h, at, key, 'GET', `/print-jobs/${id}`)).body.data;
}

describe.skipIf(!postgresAvailable())(postgresSuite('print jobs with several engine processes on one PostgreSQL database'), () => {
  beforeAll(async () => {
    printer = await startFakePrinter();
    const url = await createTestDatabase({ migrated: true });
    const keys = await seedDatabase(url, allocationCatalog({ floor: 100, seats: 2 }), ['till']);
    hub = await startHub(url, 2, keys, ['--printer', printer.url]);
  }, 90_000);
  afterAll(async () => {
    await hub?.close();
    await printer?.close();
  });

  it('a process starting leaves another live process\'s job be; the job of a process killed mid-send is failed by the others after the lease, never resent', { timeout: 75_000 }, async () => {
    const { hub: h, key, printer: p } = running();
    p.mode = 'stall'; // the printer takes the connection and reads nothing: process 0's job stays `printing`
    // 20 tickets: the write timeout grows with the slips (37 s), so process 0 is still sending when it is killed
    // however slowly the third process starts on a loaded machine
    const first = await printedOrder(h, 0, key, 20);
    for (const deadline = Date.now() + 10_000; (await jobState(h, 0, key, first.job.id)).state !== 'printing'; await sleep(100)) {
      if (Date.now() > deadline) throw new Error('the job never went to the printer');
    }
    const third = await h.add(); // starts its own print queue for the same printer
    const seen = await jobState(h, third, key, first.job.id);
    expect([seen.state, seen.reason]).toEqual(['printing', undefined]);

    const killedAt = Date.now();
    const owner = h.processes[0];
    if (!owner) throw new Error('no process 0');
    await kill(owner, 'SIGKILL');
    p.mode = 'print';
    let failed = seen;
    while (failed.state === 'printing' && Date.now() < killedAt + PRINTING_LEASE_MS + 15_000) {
      await sleep(250);
      failed = await jobState(h, 1, key, first.job.id);
    }
    expect(failed.state).toBe('failed');
    expect(failed.reason).toMatch(/interrupted/);

    // never resent: the next order's tickets are all the printer gets
    const next = await printedOrder(h, third, key, 1);
    for (const deadline = Date.now() + 15_000; (await jobState(h, third, key, next.job.id)).state !== 'done'; await sleep(100)) {
      if (Date.now() > deadline) throw new Error('the next job never printed');
    }
    expect(p.jobs).toHaveLength(1);
    const qr = decodeEscPos(p.jobs[0] ?? Buffer.alloc(0)).filter((event) => event.kind === 'qr');
    expect(qr).toEqual(next.order.tickets.map((ticket) => ({ kind: 'qr', data: ticket.signedCode ?? ticket.code })));
  });
});
