import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocationCatalog } from '../fixtures/allocation-catalog';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { startOwnCluster } from '../helpers/postgres-setup';
import { floorCart, type Cart, type Order } from './buyers';
import { call, seedDatabase, startHub, type Answer, type Hub } from './hub';

/**
 * Contract §16, issue #23 "Operations": PostgreSQL restarting under a running engine. While the server is down,
 * requests answer 503 DATABASE_UNAVAILABLE in the error envelope within a few seconds (never 500, never a hang)
 * and health says so; once it is back the same engine process serves again, nothing confirmed lost. The
 * cluster is this test's own (the run's shared one is never stopped); the engine runs at the shipped defaults.
 */

type Envelope = { data?: unknown; error?: { type: string; code: string; message: string; details?: Record<string, unknown> } };

let cluster: Awaited<ReturnType<typeof startOwnCluster>> | undefined;
let hub: Hub | undefined;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function running(): { hub: Hub; key: string; halt: () => Promise<void>; resume: () => Promise<void> } {
  const key = hub?.keys.get('till');
  if (!hub || !cluster || 'reason' in cluster || key === undefined) throw new Error('not started');
  return { hub, key, halt: cluster.halt, resume: cluster.resume };
}

/** a request and how long its answer took */
async function timed<T>(answer: Promise<Answer<T>>): Promise<Answer<T> & { ms: number }> {
  const started = performance.now();
  const answered = await answer;
  return { ...answered, ms: performance.now() - started };
}

describe.skipIf(!postgresAvailable())(postgresSuite('PostgreSQL restarting under a running engine'), () => {
  beforeAll(async () => {
    cluster = await startOwnCluster();
    if ('reason' in cluster) throw new Error(cluster.reason);
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE kassa_restart');
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = '/kassa_restart';
    const keys = await seedDatabase(url.toString(), allocationCatalog({ floor: 1000, seats: 2 }), ['till']);
    hub = await startHub(url.toString(), 1, keys);
  }, 90_000);
  afterAll(async () => {
    await hub?.close();
    if (cluster && !('reason' in cluster)) await cluster.stop();
  });

  it('while it is down: 503 DATABASE_UNAVAILABLE within seconds, health 503; once it is back the engine serves again, nothing lost', { timeout: 60_000 }, async () => {
    const { hub: h, key, halt, resume } = running();
    const health = await call<Envelope & { status?: string; database?: unknown }>(h, 0, key, 'GET', '/health');
    expect([health.status, health.body]).toEqual([200, { status: 'ok', database: { kind: 'postgres', status: 'ok' } }]);
    const cart = (await call<{ data: Cart }>(h, 0, key, 'POST', '/carts', floorCart(2))).body.data;
    const placed = await call<{ data: Order }>(h, 0, key, 'POST', '/orders', { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa' } }, { 'idempotency-key': randomUUID() });
    expect(placed.status).toBe(201);
    const spare = (await call<{ data: Cart }>(h, 0, key, 'POST', '/carts', floorCart(1))).body.data;

    // a till that keeps selling all the while: every answer is a 201 or a 503 in the envelope
    const seen: Answer<{ data?: Cart } & Envelope>[] = [];
    let selling = true;
    const till = (async () => {
      while (selling) {
        seen.push(await call<{ data?: Cart } & Envelope>(h, 0, key, 'POST', '/carts', floorCart(1)));
        await sleep(50);
      }
    })();
    await sleep(300);
    await halt();

    const down = [
      await timed(call<Envelope>(h, 0, key, 'GET', `/orders/${placed.body.data.id}`)),
      await timed(call<Envelope>(h, 0, key, 'POST', '/carts', floorCart(1))),
      await timed(call<Envelope>(h, 0, key, 'POST', '/orders', { cartId: spare.id, expectedTotal: spare.total, payment: { method: 'card', token: 'tok_visa' } }, { 'idempotency-key': randomUUID() })),
      await timed(call<Envelope>(h, 0, key, 'GET', '/health')),
    ];
    for (const answer of down) {
      expect([answer.status, answer.body.error?.type, answer.body.error?.code]).toEqual([503, 'SERVICE_UNAVAILABLE', 'DATABASE_UNAVAILABLE']);
      expect(answer.body.error?.message).toMatch(/database/i);
      expect(answer.ms).toBeLessThan(5_000);
      expect(JSON.stringify(answer.body)).not.toMatch(/postgres:\/\/|127\.0\.0\.1|kassa_restart/);
    }
    expect(down[3]?.body.error?.details).toEqual({ database: { kind: 'postgres', status: 'unavailable' } });

    await resume();
    let back: Answer<{ data?: Cart } & Envelope> | undefined;
    for (const deadline = Date.now() + 15_000; back?.status !== 201; await sleep(100)) {
      if (Date.now() > deadline) throw new Error(`the engine did not serve again within 15 s of the restart: ${JSON.stringify(back?.body)}`);
      back = await call<{ data?: Cart } & Envelope>(h, 0, key, 'POST', '/carts', floorCart(1));
    }
    selling = false;
    await till;

    expect(seen.filter((a) => a.status !== 201 && !(a.status === 503 && a.body.error?.code === 'DATABASE_UNAVAILABLE')).map((a) => [a.status, a.body])).toEqual([]);
    expect(seen.some((a) => a.status === 503)).toBe(true);
    // every cart the till was told was made, and the order made before, are there
    for (const made of seen.filter((a) => a.status === 201)) {
      expect((await call(h, 0, key, 'GET', `/carts/${made.body.data?.id ?? ''}`)).status).toBe(200);
    }
    const order = await call<{ data: Order }>(h, 0, key, 'GET', `/orders/${placed.body.data.id}`);
    expect([order.status, order.body.data.tickets.map((t) => t.code)]).toEqual([200, placed.body.data.tickets.map((t) => t.code)]);
    // the checkout refused while it was down goes through now, with a new key
    const paid = await call<{ data: Order }>(h, 0, key, 'POST', '/orders', { cartId: spare.id, expectedTotal: spare.total, payment: { method: 'card', token: 'tok_visa' } }, { 'idempotency-key': randomUUID() });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect((await call(h, 0, key, 'GET', '/health')).status).toBe(200);
  });
});
