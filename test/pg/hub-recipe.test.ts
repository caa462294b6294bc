import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MASTER_KEY_FILE } from '../../engine/store/channel-repo';
import { startTestEngine, testStaffPinHash, type TestEngine } from '../helpers/engine';
import { freeLoopbackAddress, freePort, haproxySkipReason, replaceOnce, startHaproxy, type Haproxy, type ServerStat } from '../helpers/haproxy';
import { baseUrl, createTestDatabase, postgresAvailable, postgresSuite } from '../helpers/postgres';
import { kill, startServeCommand, type ServeProcess } from '../helpers/serve-process';
import { catalogFile, FAST, FEST, httpApi, importedOrders, sell, sellMany, SYNC_SCOPES, syncCatalog, waitForSynced, waitUntil, type Order } from '../sync/harness';

/**
 * The hub recipe of docs/storage.md ("A hub on PostgreSQL"), run with its own files: deploy/hub/haproxy.cfg in the
 * real haproxy (on port 80 as written, of a spare loopback address; only the servers' ports are this run's), in
 * front of two engine processes started with deploy/hub/kassa-hub@.service's ExecStart line (node's flags, the
 * unit's serve flags; the bundle's source run by tsx; the unit's paths in a temporary folder) on one empty
 * PostgreSQL database reached over its Unix socket. Keys are made once with `keys --database`; a terminal sells
 * through haproxy while one engine process is killed, comes back, and the other is stopped (a rolling restart).
 * haproxy is never faked: without it (or without root, which its config's port 80 and `user haproxy` need) the
 * suite is skipped and its name says why.
 */

const ROOT = new URL('../../', import.meta.url);
const UNIT = readFileSync(new URL('deploy/hub/kassa-hub@.service', ROOT), 'utf8');
const HAPROXY_CFG = readFileSync(new URL('deploy/hub/haproxy.cfg', ROOT), 'utf8');
const host = haproxySkipReason() === undefined ? await freeLoopbackAddress(80).catch(() => undefined) : undefined;
const skipReason = haproxySkipReason() ?? (host === undefined ? 'port 80 is taken on every loopback address (something listens on *:80)' : undefined);
const run = promisify(execFile);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `npm run -s keys -- …` as the recipe runs it (the npm script execs node + tsx); the last line of its output */
async function keysCommand(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'engine/cli/keys.ts', ...args], { cwd: ROOT });
  return stdout.trimEnd().split('\n').at(-1) ?? '';
}

/** The unit's ExecStart for instance `port`, with the recipe's paths under `root` and the host name `host`. */
function execStart(port: number, root: string, host: string): string[] {
  const line = /^ExecStart=(.+)$/m.exec(UNIT)?.[1] ?? '';
  expect(line, 'ExecStart: no quoting (split on blanks as systemd does)').not.toMatch(/["'\\]/);
  const words = line.split(/\s+/);
  for (const word of ['/usr/bin/node', 'dist/engine/serve.mjs', '/var/lib/kassa/hub-%i', 'hub.venue.lan', '/etc/kassa/staff-pin.json']) expect(words).toContain(word);
  return words.flatMap((word) => {
    if (word === '/usr/bin/node') return [process.execPath];
    if (word === 'dist/engine/serve.mjs') return ['--import', 'tsx', 'engine/cli/serve.ts'];
    return [word.replaceAll('%i', String(port)).replace(/^\/var\/lib\/kassa|^\/etc\/kassa/, root).replace('hub.venue.lan', host)];
  });
}

/** the folder of the run's cluster's Unix socket (Debian's: /run/postgresql) */
async function socketDirectory(): Promise<string> {
  const admin = new pg.Client({ connectionString: baseUrl() });
  await admin.connect();
  try {
    const directory = (await admin.query<{ unix_socket_directories: string }>('SHOW unix_socket_directories')).rows[0]?.unix_socket_directories ?? '';
    return directory.split(',')[0]?.trim() ?? '';
  } finally {
    await admin.end();
  }
}

/** Every order of the hub (all pages of GET /orders, admin key), through the proxy. */
async function hubOrders(proxyUrl: string, adminKey: string): Promise<Order[]> {
  const api = httpApi(proxyUrl, adminKey);
  const orders: Order[] = [];
  let cursor: string | undefined;
  do {
    const response = await api.request<{ data: Order[]; nextCursor?: string }>('GET', `/orders?limit=200${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    orders.push(...response.body.data);
    cursor = response.body.nextCursor;
  } while (cursor !== undefined);
  return orders;
}

const sentBy = (servers: readonly ServerStat[]): number[] => servers.map((server) => server.sent);
const statusOf = async (proxy: Haproxy, name: string): Promise<string> => (await proxy.servers('kassa_hub')).find((server) => server.name === name)?.status ?? '';

/** Polls haproxy every 50 ms until server `name`'s status is `status`: the ms that took; rejects after 10 s. */
async function untilStatus(proxy: Haproxy, name: string, status: string): Promise<number> {
  const started = Date.now();
  while ((await statusOf(proxy, name)).split(' ')[0] !== status) {
    if (Date.now() - started > 10_000) throw new Error(`${name} not ${status} within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

describe.skipIf(!postgresAvailable() || skipReason !== undefined)(postgresSuite(`the hub recipe (deploy/hub): haproxy in front of two engine processes${skipReason === undefined ? '' : ` (skipped: ${skipReason})`}`), () => {
  it('round robin, the health check taking a killed process out and back, a rolling restart, keys made once, a terminal selling through it', { timeout: 180_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'kassa-hub-recipe-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    // the recipe's database: empty (the first process migrates it), reached over the server's Unix socket
    const tcp = new URL(await createTestDatabase());
    const database = `postgres:///${tcp.pathname.slice(1)}?host=${await socketDirectory()}&port=${tcp.port}&user=${tcp.username}`;
    const ports = [await freePort(), await freePort()] as const;
    if (host === undefined) throw new Error('no loopback address with port 80 free');
    const proxyUrl = `http://${host}`;

    // steps 3 and 4: the staff PIN file, one master key copied into each process's --data
    writeFileSync(join(root, 'staff-pin.json'), `${JSON.stringify({ staffPinHash: testStaffPinHash() })}\n`);
    for (const port of ports) mkdirSync(join(root, `hub-${port}`), { mode: 0o700 });
    writeFileSync(join(root, `hub-${ports[0]}`, MASTER_KEY_FILE), randomBytes(32).toString('base64url'), { mode: 0o600 });
    copyFileSync(join(root, `hub-${ports[0]}`, MASTER_KEY_FILE), join(root, `hub-${ports[1]}`, MASTER_KEY_FILE));

    // the two units started together (the EnvironmentFile's KASSA_DATABASE), then keys made once on the database
    const env = { KASSA_DATABASE: database };
    const start = (port: number) => startServeCommand(execStart(port, root, host), 60_000, env);
    const hubs: ServeProcess[] = await Promise.all(ports.map(start));
    cleanups.push(async () => {
      for (const hub of hubs) await kill(hub, 'SIGKILL');
    });
    const fingerprints = hubs.map((hub) => /"masterKey":"([0-9a-f]{12})"/.exec(hub.output())?.[1]);
    expect(fingerprints[0]).toMatch(/^[0-9a-f]{12}$/);
    expect(fingerprints[1]).toBe(fingerprints[0]);
    const [terminalKey, adminKey] = await Promise.all([
      keysCommand(['create', '--database', database, '--name', 'till-1', '--owner', 'till-1', '--scopes', SYNC_SCOPES.join(',')]),
      keysCommand(['create', '--database', database, '--name', 'ops', '--scopes', 'admin']),
    ]);

    // haproxy on the recipe's file: its bind on the spare address's port 80, its servers on this run's ports
    let config = replaceOnce(HAPROXY_CFG, 'bind :80', `bind ${host}:80`);
    config = replaceOnce(config, 'server hub-8801 127.0.0.1:8801 check', `server hub-8801 127.0.0.1:${ports[0]} check`);
    config = replaceOnce(config, 'server hub-8802 127.0.0.1:8802 check', `server hub-8802 127.0.0.1:${ports[1]} check`);
    const proxy = await startHaproxy(config, root);
    cleanups.push(() => proxy.stop());
    await waitUntil(async () => (await proxy.servers('kassa_hub')).every((server) => server.status === 'UP'), 10_000, 'both servers UP');

    // the catalog, once, through the proxy: both processes serve it
    const admin = httpApi(proxyUrl, adminKey);
    const imported = await admin.request('PUT', '/catalog', { body: syncCatalog() });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    // round robin: ten requests, five to each
    const before = sentBy(await proxy.servers('kassa_hub'));
    for (let i = 0; i < 10; i++) {
      const events = await admin.request<{ data: { id: string }[] }>('GET', '/events');
      expect(events.body.data.map((event) => event.id)).toEqual([FEST.eventId]);
    }
    expect(sentBy(await proxy.servers('kassa_hub')).map((sent, i) => sent - (before[i] ?? 0))).toEqual([5, 5]);

    // a terminal pointed at the proxy sells; process hub-8801 is killed after its third sale
    const catalog = catalogFile();
    cleanups.push(() => catalog.remove());
    const terminal: TestEngine = await startTestEngine({ catalogFile: catalog.path, demo: false, allocation: 100, upstream: { url: proxyUrl, key: terminalKey, pullIntervalMs: 60_000, ...FAST } });
    cleanups.push(() => terminal.close());
    const [victim] = hubs;
    if (!victim) throw new Error('no engine process');
    const sold: Order[] = [];
    let markedDown: Promise<number> | undefined;
    for (let i = 0; i < 10; i++) {
      sold.push(await sell(terminal, i, { seats: false }));
      if (i === 2) {
        await kill(victim, 'SIGKILL');
        markedDown = untilStatus(proxy, 'hub-8801', 'DOWN');
        // before the health check notices: a refused connection is sent to the other process (retries, redispatch)
        for (let j = 0; j < 4; j++) expect((await admin.request('GET', '/events')).status).toBe(200);
      }
    }
    // the health check takes it out (inter 1s, fall 2); meanwhile and after, every request answered by the other
    expect(await markedDown).toBeLessThan(4_000);
    const down = sentBy(await proxy.servers('kassa_hub'));
    for (let i = 0; i < 4; i++) expect((await admin.request('GET', '/events')).status).toBe(200);
    const afterDown = sentBy(await proxy.servers('kassa_hub'));
    expect(afterDown[0]).toBe(down[0]);
    expect((afterDown[1] ?? 0) - (down[1] ?? 0)).toBeGreaterThanOrEqual(4);
    sold.push(...(await sellMany(terminal, 5, 10)));
    expect(await waitForSynced(terminal, 20_000)).toMatchObject({ waiting: 0, conflicts: [], upstreamKind: 'hub' });

    // the unit restarted (Restart=on-failure): the health check takes it back (rise 2) and round robin resumes
    hubs.push(await start(ports[0]));
    await untilStatus(proxy, 'hub-8801', 'UP');
    const up = sentBy(await proxy.servers('kassa_hub'));
    for (let i = 0; i < 4; i++) expect((await admin.request('GET', '/events')).status).toBe(200);
    for (const [i, sent] of sentBy(await proxy.servers('kassa_hub')).entries()) expect(sent).toBeGreaterThan(up[i] ?? 0);

    // a rolling restart's other half (`systemctl restart kassa-hub@8802`: SIGTERM, the unit's KillSignal) while
    // the terminal sells: it exits 0, requests go on through the first
    const [, other] = hubs;
    if (!other) throw new Error('no second engine process');
    let stopped: Promise<number | null> | undefined;
    for (let i = 15; i < 20; i++) {
      sold.push(await sell(terminal, i, { seats: false }));
      if (i === 16) stopped = kill(other, 'SIGTERM');
    }
    expect(await stopped).toBe(0);
    for (let i = 0; i < 4; i++) expect((await admin.request('GET', '/events')).status).toBe(200);
    expect(await waitForSynced(terminal, 20_000)).toMatchObject({ waiting: 0, conflicts: [] });

    // every order the terminal sold reached the hub once, confirmed
    const arrived = importedOrders(await hubOrders(proxyUrl, adminKey));
    expect(arrived.map((order) => order.payment.reference).sort()).toEqual(sold.map((order) => order.id).sort());
    for (const order of arrived) expect(order.status).toBe('confirmed');
  });
});

const systemdAnalyze = [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/bin', '/bin'].map((dir) => join(dir, 'systemd-analyze')).find((file) => existsSync(file));

describe.skipIf(systemdAnalyze === undefined)(`the hub recipe: deploy/hub/kassa-hub@.service${systemdAnalyze === undefined ? ' (skipped: no systemd-analyze here)' : ''}`, () => {
  it('passes systemd-analyze verify as an instance (kassa-hub@8801), with node where this machine has it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kassa-unit-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'kassa-hub@.service'), replaceOnce(UNIT, 'ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `));
    symlinkSync('kassa-hub@.service', join(dir, 'kassa-hub@8801.service'));
    const { stdout, stderr } = await run(systemdAnalyze ?? 'systemd-analyze', ['verify', join(dir, 'kassa-hub@8801.service')], { cwd: dir });
    expect(stdout + stderr).toBe('');
  });
});

