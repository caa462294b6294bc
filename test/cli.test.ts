import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_NODE_FLAGS, ENGINE_PROCESS_FLAGS, ENGINE_V8_FLAGS } from '../engine/cli/v8-flags';
import pg from 'pg';
import { baseUrl, createTestDatabase, postgresAvailable, postgresSuite } from './helpers/postgres';
import { api, collect, groupGone, keys, killGroup, lastLine, ROOT, running, serve, SLOW, STACK_FRAME, tempDir, untilListening, useCliCleanup, type Finished } from './helpers/cli';

/**
 * The command line of contract §1 as real processes: `keys create|list|revoke` and `serve` with its options,
 * readiness lines, a key made by the CLI used against the running server, clean shutdown on SIGTERM and
 * SIGINT with the database intact, and clear failures for bad options and bad catalog files.
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

describe('keys command', () => {
  let data: string;
  let key = '';
  let keyId = '';
  beforeAll(() => {
    data = tempDir();
  });

  it('create prints the new key alone on the last line of stdout', { timeout: SLOW }, async () => {
    const result = await keys('create', '--data', data, '--name', 'kiosk-1', '--scopes', 'carts:write');
    expect(result.code, result.stderr).toBe(0);
    key = lastLine(result.stdout);
    expect(key).toMatch(/^\S{32,}$/);
    expect(result.stdout.endsWith(`${key}\n`)).toBe(true);
    // shown once: nowhere else in the output
    expect(result.stdout.split(key).length - 1).toBe(1);
    expect(result.stderr).not.toContain(key);
  });

  it('a second create prints a different key', { timeout: SLOW }, async () => {
    const result = await keys('create', '--data', data, '--name', 'kiosk-2', '--scopes', 'catalog:read,carts:write');
    expect(result.code, result.stderr).toBe(0);
    const second = lastLine(result.stdout);
    expect(second).toMatch(/^\S{32,}$/);
    expect(second).not.toBe(key);
  });

  it('list shows the keys with name and scopes, never the key itself', { timeout: SLOW }, async () => {
    const result = await keys('list', '--data', data);
    expect(result.code, result.stderr).toBe(0);
    const line = result.stdout.split('\n').find((candidate) => candidate.includes('kiosk-1'));
    expect(line).toBeDefined();
    expect(line).toContain('carts:write');
    expect(line).not.toMatch(/revoked/);
    expect(result.stdout).toContain('kiosk-2');
    expect(result.stdout).not.toContain(key);
    expect(result.stdout).not.toContain(key.replace(/^[a-z]+_/, ''));
    keyId = line?.trim().split(/\s+/)[0] ?? '';
    expect(keyId).toMatch(/\S/);
  });

  it.each([
    ['an unknown scope', ['--name', 'x', '--scopes', 'carts:write,bogus'], 'bogus'],
    ['only an unknown scope', ['--name', 'x', '--scopes', 'superuser'], 'superuser'],
    ['no scopes', ['--name', 'x'], 'scopes'],
    ['no name', ['--scopes', 'carts:write'], 'name'],
  ])('create with %s exits non-zero, prints no key and stores none', { timeout: SLOW }, async (_label, args, mentioned) => {
    const result = await keys('create', '--data', data, ...args);
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stderr).toContain(mentioned);
    expect(result.stdout).toBe('');
    const list = await keys('list', '--data', data);
    expect(list.stdout.split('\n').filter((line) => line.trim() !== '')).toHaveLength(2);
  });

  it('revoke of an unknown id exits non-zero', { timeout: SLOW }, async () => {
    const result = await keys('revoke', 'key_doesnotexist', '--data', data);
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stderr).toContain('key_doesnotexist');
  });

  it('revoke ID marks the key revoked in list', { timeout: SLOW }, async () => {
    const result = await keys('revoke', keyId, '--data', data);
    expect(result.code, result.stderr).toBe(0);
    const list = await keys('list', '--data', data);
    const line = list.stdout.split('\n').find((candidate) => candidate.includes('kiosk-1'));
    expect(line).toMatch(/revoked/);
    expect(list.stdout.split('\n').find((candidate) => candidate.includes('kiosk-2'))).not.toMatch(/revoked/);
  });
});

describe('keys rotation: create --owner, list shows the owner, replace ID', () => {
  let data: string;
  const listed = async (name: string): Promise<string[]> =>
    (await keys('list', '--data', data)).stdout.split('\n').filter((line) => line.split('\t')[1] === name);
  const idOf = (line: string | undefined): string => line?.split('\t')[0] ?? '';
  beforeAll(() => {
    data = tempDir();
  });

  it('a key owns alone by default: list shows its own id as the owner', { timeout: SLOW }, async () => {
    const result = await keys('create', '--data', data, '--name', 'till-1', '--scopes', 'catalog:read,orders:import');
    expect(result.code, result.stderr).toBe(0);
    const [line] = await listed('till-1');
    expect(line?.endsWith(`\tactive\towner ${idOf(line)}`)).toBe(true);
  });

  it('create --owner records that owner, and says so', { timeout: SLOW }, async () => {
    const result = await keys('create', '--data', data, '--name', 'till-2', '--scopes', 'catalog:read', '--owner', 'till-2');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('owner till-2');
    expect(await listed('till-2')).toEqual([expect.stringMatching(/\tactive\towner till-2$/)]);
  });

  it.each([['kiosk'], ['box-office'], ['']])("create --owner '%s' (the engine's own roles, or empty) exits non-zero and stores no key", { timeout: SLOW }, async (owner) => {
    const result = await keys('create', '--data', data, '--name', 'taken', '--scopes', 'orders:read', '--owner', owner);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(await listed('taken')).toEqual([]);
  });

  it("replace ID prints a new key alone on the last line, with the old key's name, scopes and owner, and revokes the old one", { timeout: SLOW }, async () => {
    const oldId = idOf((await listed('till-1'))[0]);
    const result = await keys('replace', oldId, '--data', data);
    expect(result.code, result.stderr).toBe(0);
    const key = lastLine(result.stdout);
    expect(key).toMatch(/^\S{32,}$/);
    expect(result.stdout.endsWith(`${key}\n`)).toBe(true);
    expect(result.stdout.split(key).length - 1).toBe(1);
    expect(result.stdout).toContain(`revoked ${oldId}`);
    const [old, replacement] = (await listed('till-1')).map((line) => line.split('\t'));
    expect(old).toEqual([oldId, 'till-1', 'catalog:read,orders:import', expect.any(String), expect.stringMatching(/^revoked /), `owner ${oldId}`]);
    expect(replacement).toEqual([expect.stringMatching(/^key_/), 'till-1', 'catalog:read,orders:import', expect.any(String), 'active', `owner ${oldId}`]);
    expect(replacement?.[0]).not.toBe(oldId);
  });

  it('replace keeps an owner given with --owner', { timeout: SLOW }, async () => {
    const result = await keys('replace', idOf((await listed('till-2'))[0]), '--data', data);
    expect(result.code, result.stderr).toBe(0);
    const states = (await listed('till-2')).map((line) => line.split('\t').slice(4));
    expect(states).toEqual([[expect.stringMatching(/^revoked /), 'owner till-2'], ['active', 'owner till-2']]);
  });

  it('replace of an unknown id exits non-zero and makes no key', { timeout: SLOW }, async () => {
    const before = (await keys('list', '--data', data)).stdout;
    const result = await keys('replace', 'key_doesnotexist', '--data', data);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('key_doesnotexist');
    expect(result.stdout).toBe('');
    expect((await keys('list', '--data', data)).stdout).toBe(before);
  });
});

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

describe('serve given --upstream-key KEY (contract §1 names it; a file or the environment is the safe way)', () => {
  it('starts as a terminal, warns without the key, and hides the key from the process list', { timeout: SLOW }, async () => {
    const secret = 'kassa_argv_secret_4711';
    // node itself, not `npm run serve`: npm and its shell would keep the key in their own command lines
    const child = spawn(process.execPath, ['dist/engine/serve.mjs', '--port', '0', '--data', tempDir(), '--no-demo', '--upstream', 'http://127.0.0.1:9', '--upstream-key', secret], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const { out, exited } = collect(child);
    await untilListening(child, out);
    const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
    expect(commandLine).toContain('kassa-serve');
    expect(commandLine).toContain('--upstream-key ***');
    expect(commandLine).not.toContain(secret);
    expect(out.stderr).toMatch(/--upstream-key puts the key in the process list/);
    expect(out.stdout).toMatch(/^sync: upstream http:\/\/127\.0\.0\.1:9$/m);
    child.kill('SIGTERM');
    const finished = await exited;
    expect(finished.code).toBe(0);
    expect(finished.stdout + finished.stderr).not.toContain(secret);
  });
});

describe('serve refuses bad options and bad catalogs', () => {
  /** runs serve expecting it to fail before listening */
  async function failing(args: string[]): Promise<Finished> {
    const child = spawn('npm', ['run', '-s', 'serve', '--', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    const timer = setTimeout(() => killGroup(child), 30_000);
    const finished = await collect(child).exited;
    clearTimeout(timer);
    expect(finished.stdout).not.toMatch(/listening on/);
    expect(finished.code).not.toBe(0);
    expect(finished.code).not.toBeNull();
    return finished;
  }

  it.each([
    [['--port', 'abc'], ['--port', 'abc']],
    [['--port', '70000'], ['--port', '70000']],
    [['--port', '1.5'], ['--port', '1.5']],
    [['--hold-seconds', 'abc'], ['--hold-seconds', 'abc']],
    [['--hold-seconds', '0'], ['--hold-seconds']],
    [['--rate-limit', '-'], ['--rate-limit']],
  ])('%j exits non-zero with a one-line message naming the option and value', { timeout: SLOW }, async (args, mentioned) => {
    const result = await failing(['--data', tempDir(), ...args]);
    for (const text of mentioned) expect(result.stderr).toContain(text);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it.each([[['--bogus']], [['--port']]])('%j (unknown option / missing value) exits non-zero with a clear message, no stack trace', { timeout: SLOW }, async (args) => {
    const result = await failing(['--data', tempDir(), ...args]);
    expect(result.stderr).toContain(args[0]);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('a catalog that breaks the schema: exits non-zero naming the file and the field', { timeout: SLOW }, async () => {
    const dir = tempDir();
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ locations: [{ id: 'hall', name: 'Hall', currencies: ['EUR'] }], events: [{ id: 'e1', name: 'E', locationId: 'hall', occurrences: [] }] }));
    const result = await failing(['--data', join(dir, 'data'), '--catalog', file]);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toMatch(/events\/0|events\[0\]/);
    expect(result.stderr).toContain('kind');
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('a catalog that is not JSON: exits non-zero naming the file', { timeout: SLOW }, async () => {
    const dir = tempDir();
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"locations": [');
    const result = await failing(['--data', join(dir, 'data'), '--catalog', file]);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toMatch(/JSON/);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('a catalog file that does not exist: exits non-zero naming it', { timeout: SLOW }, async () => {
    const dir = tempDir();
    const file = join(dir, 'missing.json');
    const result = await failing(['--data', join(dir, 'data'), '--catalog', file]);
    expect(result.stderr).toContain(file);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('a catalog whose event names an unknown location: exits non-zero naming the field and the problem', { timeout: SLOW }, async () => {
    const dir = tempDir();
    const file = join(dir, 'dangling.json');
    writeFileSync(file, JSON.stringify({ locations: [], events: [{ id: 'e1', name: 'E', locationId: 'nowhere', kind: 'ticket', occurrences: [] }] }));
    const result = await failing(['--data', join(dir, 'data'), '--catalog', file]);
    expect(result.stderr).toContain('events[0].locationId');
    expect(result.stderr).toMatch(/unknown_location|INVALID_FIELD_VALUE/);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });
});

describe('serve --database: a bad URL, an unreachable server, a password that never shows', () => {
  async function failing(args: string[]): Promise<Finished> {
    const child = spawn('npm', ['run', '-s', 'serve', '--', '--port', '0', '--data', tempDir(), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    const timer = setTimeout(() => killGroup(child), 30_000);
    const finished = await collect(child).exited;
    clearTimeout(timer);
    expect(finished.stdout).not.toMatch(/listening on/);
    return finished;
  }

  it.each([
    ['postgres://kassa:pw_hidden@[bad/kassa', 'error: --database: not a valid postgres:// URL'],
    ['mysql://kassa:pw_hidden@db/kassa', 'error: --database takes sqlite: or a postgres://user@host:port/db URL'],
  ])('%s is a usage error: exit 1 with one line, as --port abc, no stack trace, no password', { timeout: SLOW }, async (url, message) => {
    const result = await failing(['--database', url]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(message);
    expect(result.stderr).not.toContain('pw_hidden');
  });

  it('KASSA_DATABASE with a bad URL fails the same way', { timeout: SLOW }, async () => {
    const child = spawn('npm', ['run', '-s', 'serve', '--', '--port', '0', '--data', tempDir()], { cwd: ROOT, env: { ...process.env, KASSA_DATABASE: 'postgres://kassa:pw_hidden@[bad' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    const result = await collect(child).exited;
    expect([result.code, result.stderr.trim()]).toEqual([1, 'error: --database: not a valid postgres:// URL']);
  });

  it('an unreachable server fails the start: exit 1, one line naming the host and port, never the password', { timeout: SLOW }, async () => {
    const result = await failing(['--database', 'postgres://kassa:pw_hidden@127.0.0.1:1/kassa']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: cannot open the PostgreSQL database postgres:\/\/kassa:\*\*\*@127\.0\.0\.1:1\/kassa: connect ECONNREFUSED 127\.0\.0\.1:1$/m);
    expect(result.stdout + result.stderr).not.toContain('pw_hidden');
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('a host that does not resolve is named too', { timeout: SLOW }, async () => {
    const result = await failing(['--database', 'postgres://kassa:pw_hidden@no-such-host.invalid/kassa']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: cannot open the PostgreSQL database postgres:\/\/kassa:\*\*\*@no-such-host\.invalid\/kassa: .*no-such-host\.invalid/m);
    expect(result.stdout + result.stderr).not.toContain('pw_hidden');
  });

  it.skipIf(!postgresAvailable())(postgresSuite('a password in the URL: the process runs, warns, and the password is in no log line, no readiness line, not in its process title, not in the pool\'s warnings'), { timeout: 2 * SLOW }, async () => {
    const url = new URL(await createTestDatabase({ migrated: true }));
    url.password = 'pg_s3cret_4711'; // the test cluster trusts loopback: the password is not checked
    // node itself, not `npm run serve`: npm and its shell keep their own command lines
    const child = spawn(process.execPath, ['--import', 'tsx', 'engine/cli/serve.ts', '--port', '0', '--data', tempDir(), '--no-demo', '--log-level', 'trace', '--database', url.toString()], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const { out, exited } = collect(child);
    await untilListening(child, out);
    expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8')).not.toContain('pg_s3cret_4711');
    expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8')).toContain(`--database postgres://postgres:***@${url.host}${url.pathname}`);
    expect(out.stdout).toMatch(new RegExp(`^database: postgres://postgres:\\*\\*\\*@${url.host}${url.pathname}$`, 'm'));
    expect(out.stderr).toMatch(/--database carries a password/);
    const base = /^listening on (\S+)$/m.exec(out.stdout)?.[1] ?? '';
    expect((await fetch(`${base}/api/v3/health`)).status).toBe(200);

    // the server ends the pool's sessions (as a PostgreSQL restart would): the pool's warning names the database
    const admin = new pg.Client({ connectionString: baseUrl() });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [url.pathname.slice(1)]);
    } finally {
      await admin.end();
    }
    for (let waited = 0; !out.stderr.includes('a connection failed'); waited += 50) {
      if (waited > 10_000) throw new Error(`no warning of the lost connections:\n${out.stderr}`);
      await new Promise((done) => setTimeout(done, 50));
    }
    expect(out.stderr).toContain(`PostgreSQL postgres://postgres:***@${url.host}${url.pathname}: a connection failed`);
    // the pool opens new ones: health answers again (at once, or after a 503 while a dropped session was tried)
    let status = 0;
    for (let tries = 0; status !== 200 && tries < 50; tries += 1) {
      status = (await fetch(`${base}/api/v3/health`)).status;
      if (status !== 200) await new Promise((done) => setTimeout(done, 100));
    }
    expect(status).toBe(200);
    child.kill('SIGTERM');
    const finished = await exited;
    expect(finished.code).toBe(0);
    expect(finished.stdout + finished.stderr).not.toContain('pg_s3cret_4711');
    expect(finished.stdout + finished.stderr).not.toContain(encodeURIComponent('pg_s3cret_4711'));
  });
});
