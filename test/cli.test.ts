import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_NODE_FLAGS, ENGINE_PROCESS_FLAGS, ENGINE_V8_FLAGS } from '../engine/cli/v8-flags';
import { api, groupGone, keys, lastLine, serve, SLOW, STACK_FRAME, tempDir, useCliCleanup } from './helpers/cli';

/**
 * The command line of contract §1 as real processes, part 2 (test/cli-keys.test.ts has the keys command,
 * test/cli-serve-options.test.ts the refusals): `serve` with its options, readiness lines, a key made by the CLI
 * used against the running server, clean shutdown on SIGTERM and SIGINT with the database intact.
 *
 * `keys` runs as `npx tsx engine/cli/keys.ts`. `serve` runs exactly as a user starts it, `npm run serve -- …`:
 * the script execs node, so npm hands SIGTERM and SIGINT straight to the engine. Each server is started in its
 * own process group, which afterEach kills if a test left it running (test/helpers/cli.ts).
 */

const ITEM = { occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 2 };

function portRefuses(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('connect', () => {
      socket.destroy();
      done(false);
    });
    socket.on('error', () => done(true));
  });
}

function openData(dir: string): Database.Database {
  return new Database(join(dir, 'kassa.sqlite'), { readonly: true, fileMustExist: true });
}

useCliCleanup();

describe('the engine process\'s V8 heap settings (engine/cli/v8-flags.ts)', () => {
  it('npm run serve gives node every flag, before the bundle', () => {
    const serve = (JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.serve ?? '';
    const node = serve.slice(serve.indexOf('exec node'));
    for (const flag of ENGINE_PROCESS_FLAGS) expect(node.indexOf(flag), flag).toBeGreaterThan(0);
    for (const flag of ENGINE_PROCESS_FLAGS) expect(node.indexOf(flag)).toBeLessThan(node.indexOf('dist/engine/serve.mjs'));
  });

  const probe = (flags: readonly string[], script: string): string => {
    const run = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    return run.stdout;
  };

  it('V8 takes them: the young generation\'s share of the heap limit shrinks by three semi-spaces of 16 − 4 MB', () => {
    const limit = (flags: readonly string[]) => Number(probe(flags, 'process.stdout.write(String(require("v8").getHeapStatistics().heap_size_limit))'));
    // the limit counts the young generation as three semi-spaces: 3 × (16 − 4) MB less with the flags
    expect(limit([]) - limit(ENGINE_V8_FLAGS)).toBe(3 * 12 * 1024 * 1024);
  });

  it('Node takes them: V8 keeps one helper thread instead of four', () => {
    const threads = (flags: readonly string[]) => Number(probe(flags, 'process.stdout.write(String(require("fs").readdirSync("/proc/self/task").length))'));
    expect(threads([]) - threads(ENGINE_NODE_FLAGS)).toBe(3);
  });
});

describe('serve command', () => {
  let data: string;
  let cartsKey = '';
  let cartsKeyId = '';
  let readKey = '';
  let cartId = '';

  beforeAll(async () => {
    data = tempDir();
    const carts = await keys('create', '--data', data, '--name', 'till', '--scopes', 'carts:write');
    const read = await keys('create', '--data', data, '--name', 'reader', '--scopes', 'catalog:read');
    expect([carts.code, read.code]).toEqual([0, 0]);
    cartsKey = lastLine(carts.stdout);
    readKey = lastLine(read.stdout);
    const list = await keys('list', '--data', data);
    cartsKeyId = list.stdout.split('\n').find((line) => line.includes('till'))?.trim().split(/\s+/)[0] ?? '';
  }, SLOW);

  it('prints the listening line and a ui line, serves the CLI-made keys, and stops on SIGTERM with exit 0', { timeout: SLOW }, async () => {
    const server = await serve(['--data', data, '--port', '0']);
    expect(server.stdout()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(server.stdout()).toMatch(/^ui: \S.*$/m);
    expect(server.port).toBeGreaterThan(0);

    expect(await api(server, 'GET', '/health', undefined)).toEqual({ status: 200, body: { status: 'ok', database: { kind: 'sqlite', status: 'ok' } } });
    const locations = await api<{ data: { id: string; availableCurrencies: string[] }[] }>(server, 'GET', '/locations', readKey);
    expect(locations.status).toBe(200);
    expect(locations.body.data.map((location) => location.id)).toEqual(['stadthalle']);

    const created = await api<{ data: { id: string } }>(server, 'POST', '/carts', cartsKey, { items: [ITEM] });
    expect(created.status).toBe(201);
    cartId = created.body.data.id;
    // the carts:write key is authenticated but lacks catalog:read
    const denied = await api<{ error: { code: string; details: unknown } }>(server, 'GET', '/locations', cartsKey);
    expect([denied.status, denied.body.error.code, denied.body.error.details]).toEqual([403, 'INSUFFICIENT_PERMISSIONS', { requiredScope: 'catalog:read' }]);
    expect((await api(server, 'GET', '/locations', 'kassa_not-a-key')).status).toBe(401);

    // revoking with the CLI while the server runs takes effect at once
    const revoked = await keys('revoke', cartsKeyId, '--data', data);
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = await api<{ error: { type: string; code: string } }>(server, 'GET', `/carts/${cartId}`, cartsKey);
    expect([after.status, after.body.error.type, after.body.error.code]).toEqual([401, 'AUTHENTICATION_ERROR', 'INVALID_API_KEY']);

    const pid = server.child.pid ?? 0;
    const sent = Date.now();
    server.child.kill('SIGTERM');
    const finished = await server.exited;
    expect({ code: finished.code, signal: finished.signal }).toEqual({ code: 0, signal: null });
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(finished.stderr).not.toMatch(STACK_FRAME);
    expect(await groupGone(pid)).toBe(true); // the engine process itself is gone too, not just npm
    expect(await portRefuses(server.port)).toBe(true);

    const db = openData(data);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare('SELECT id FROM carts WHERE id = ?').get(cartId)).toEqual({ id: cartId });
      expect(db.prepare("SELECT count(*) AS n FROM api_keys WHERE name IN ('till', 'reader')").get()).toEqual({ n: 2 });
    } finally {
      db.close();
    }
  });

  it('restarts on the same data (keeping its carts and keys) and stops on SIGINT with exit 0', { timeout: SLOW }, async () => {
    const server = await serve(['--data', data, '--port', '0']);
    const locations = await api<{ data: unknown[] }>(server, 'GET', '/locations', readKey);
    expect(locations.status).toBe(200);
    expect(locations.body.data).toHaveLength(1);
    // the revoked key stays revoked across the restart
    expect((await api(server, 'GET', `/carts/${cartId}`, cartsKey)).status).toBe(401);

    const pid = server.child.pid ?? 0;
    const sent = Date.now();
    server.child.kill('SIGINT');
    const finished = await server.exited;
    expect({ code: finished.code, signal: finished.signal }).toEqual({ code: 0, signal: null });
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(await groupGone(pid)).toBe(true);

    const db = openData(data);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare('SELECT count(*) AS n FROM carts').get()).toEqual({ n: 1 });
      expect(db.prepare('SELECT count(*) AS n FROM locations').get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it('--hold-seconds 2 gives carts that expire about 2 s after creation', { timeout: SLOW }, async () => {
    const dir = tempDir();
    const created = await keys('create', '--data', dir, '--name', 'till', '--scopes', 'carts:write');
    expect(created.code, created.stderr).toBe(0);
    const key = lastLine(created.stdout);
    const server = await serve(['--data', dir, '--port', '0', '--hold-seconds', '2']);

    const before = Date.now();
    const cart = await api<{ data: { id: string; expiresAt: string } }>(server, 'POST', '/carts', key, { items: [ITEM] });
    const after = Date.now();
    expect(cart.status).toBe(201);
    const expiresAt = Date.parse(cart.body.data.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 2000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(after + 2000 + 1000);

    // The flag of a real process on the real clock (serve has no clock to inject): the cart is read until it
    // answers 410, which must not come before expiresAt, and no later than 300 ms after it.
    let gone: { status: number; body: { error?: { code: string } } };
    for (;;) {
      const sent = Date.now();
      gone = await api<{ error?: { code: string } }>(server, 'GET', `/carts/${cart.body.data.id}`, key);
      if (gone.status !== 200) break;
      expect(sent, 'still held 300 ms after expiresAt').toBeLessThan(expiresAt + 300);
      await new Promise((done) => setTimeout(done, 20));
    }
    expect(Date.now(), 'expired before expiresAt').toBeGreaterThanOrEqual(expiresAt);
    expect([gone.status, gone.body.error?.code]).toEqual([410, 'CART_EXPIRED']);

    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  });

  it('--catalog FILE imports that catalog instead of the demo', { timeout: SLOW }, async () => {
    const dir = tempDir();
    const file = join(dir, 'catalog.json');
    writeFileSync(
      file,
      JSON.stringify({
        locations: [{ id: 'hall', name: 'Hall', currencies: ['GBP'] }],
        events: [
          {
            id: 'quiz',
            name: 'Quiz night',
            locationId: 'hall',
            kind: 'ticket',
            occurrences: [
              {
                id: 'quiz-1',
                startsAt: '2027-05-01T19:00:00Z',
                onSale: true,
                areas: [{ id: 'room', name: 'Room', seating: 'general', priceOptions: [{ id: 'std', name: 'Standard', price: { amount: 500, currency: 'GBP' } }], inventoryItems: [{ id: 'room', capacity: 30 }] }],
              },
            ],
          },
        ],
      }),
    );
    const created = await keys('create', '--data', join(dir, 'data'), '--name', 'reader', '--scopes', 'catalog:read');
    const key = lastLine(created.stdout);
    const server = await serve(['--data', join(dir, 'data'), '--port', '0', '--catalog', file]);
    const events = await api<{ data: { id: string }[] }>(server, 'GET', '/events', key);
    expect(events.status).toBe(200);
    expect(events.body.data.map((event) => event.id)).toEqual(['quiz']);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  });

  it('--no-demo leaves a new database empty', { timeout: SLOW }, async () => {
    const dir = tempDir();
    const created = await keys('create', '--data', dir, '--name', 'reader', '--scopes', 'catalog:read');
    const key = lastLine(created.stdout);
    const server = await serve(['--data', dir, '--port', '0', '--no-demo']);
    expect(await api(server, 'GET', '/locations', key)).toEqual({ status: 200, body: { data: [] } });
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  });

  it('SIGTERM during a checkout whose till went away waits for it, saying so; a second SIGTERM exits at once', { timeout: SLOW }, async () => {
    const dir = tempDir();
    const key = lastLine((await keys('create', '--data', dir, '--name', 'till', '--scopes', 'admin')).stdout);
    // the simulated provider answers after 20 s: the checkout is under way long after the till is gone
    const server = await serve(['--data', dir, '--port', '0', '--psp-answer-delay-ms', '20000']);
    const cart = await api<{ data: { id: string; total: unknown } }>(server, 'POST', '/carts', key, { items: [ITEM] });
    expect(cart.status).toBe(201);
    const till = new AbortController();
    const checkout = fetch(`${server.url}/api/v3/orders`, {
      method: 'POST',
      signal: till.signal,
      headers: { 'x-svc-api-key': key, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'card', token: 'tok_visa' } }),
    }).catch(() => undefined);
    for (let waited = 0; ; waited += 50) {
      const db = openData(dir);
      const pending = db.prepare("SELECT count(*) AS n FROM payment_attempts WHERE state = 'pending'").get() as { n: number };
      db.close();
      if (pending.n > 0) break;
      if (waited > 10_000) throw new Error('no payment under way');
      await new Promise((done) => setTimeout(done, 50));
    }
    till.abort();
    await checkout;

    server.child.kill('SIGTERM');
    for (let waited = 0; !server.stderr().includes('waiting for the work under way'); waited += 50) {
      if (waited > 5_000) throw new Error(`no word of the wait:\n${server.stderr()}`);
      await new Promise((done) => setTimeout(done, 50));
    }
    // (a signal within 1 s of the first is that one delivered twice, not a second one: serve.ts)
    await new Promise((done) => setTimeout(done, 1_200));
    expect(server.child.exitCode).toBeNull(); // still waiting for the provider's answer

    const sent = Date.now();
    server.child.kill('SIGTERM');
    const finished = await server.exited;
    expect(finished.code).toBe(1);
    expect(Date.now() - sent).toBeLessThan(5_000);
    expect(finished.stderr).toContain('second signal: exiting without waiting');
    expect(await groupGone(server.child.pid ?? 0)).toBe(true);
  });
});
