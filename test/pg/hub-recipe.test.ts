import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MASTER_KEY_FILE } from '../../engine/store/channel-repo';
import { startTestEngine, testStaffPinHash, type TestEngine } from '../helpers/engine';
import { baseUrl, createTestDatabase, postgresAvailable, postgresSuite } from '../helpers/postgres';
import { kill, startServe, type ServeProcess } from '../helpers/serve-process';
import { catalogFile, FAST, FEST, httpApi, importedOrders, sell, sellMany, SYNC_SCOPES, syncCatalog, waitForSynced, type Order } from '../sync/harness';

/**
 * The hub recipe of docs/notes-ops.md (a hub on PostgreSQL: two engine processes behind a proxy, no Docker),
 * followed as far as this machine allows without installing packages: one PostgreSQL database (the run's
 * throwaway cluster stands in for Debian's `postgresql` package), reached through its Unix socket, keys made once with `keys --database`, the
 * channel master key made once and copied into each process's `--data`, two real `serve --database` processes
 * started together on the empty database (the migrations run once), the catalog put once through the proxy, and in front of them a small round-robin
 * proxy standing in for haproxy — it checks `/api/v3/health` every second, sends a request whose connection is
 * refused to the other process (haproxy's `retries` + `option redispatch`) and answers 502 when a process dies
 * with a request under way. A terminal engine sells through it; one hub process is killed (SIGKILL) mid-way, then
 * comes back while the other is stopped (SIGTERM) mid-way — a rolling restart — and every order the terminal sold
 * reaches the hub exactly once.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const run = promisify(execFile);

/** `npm run keys -- …` as the recipe runs it (node + tsx, as the npm script execs) */
async function keysCommand(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'engine/cli/keys.ts', ...args], { cwd: new URL('../../', import.meta.url), env: { ...process.env, ...env } });
  return stdout.trimEnd().split('\n').at(-1) ?? '';
}

interface Backend {
  readonly port: number;
  up: boolean;
  passes: number;
  fails: number;
}

/**
 * The stand-in for the recipe's haproxy: round robin over the backends marked up; every second a GET of
 * /api/v3/health (Host 127.0.0.1, as the recipe's `http-check send`) marks a backend down after two failures and
 * up after two passes (`inter 1s fall 2 rise 2`); a refused connection marks it down at once and the request goes
 * to the next (`retries`, `option redispatch`: safe, nothing was sent); one connection per request. The recipe's proxy listens on port 80, so
 * its clients send `Host` without a port; this one listens on a free port and drops the port from `Host`, which
 * is what reaches the engines behind the real one.
 */
async function startProxy(ports: readonly number[]): Promise<{ url: string; backends: Backend[]; forwarded: Map<number, number>; close: () => Promise<void> }> {
  const backends: Backend[] = ports.map((port) => ({ port, up: true, passes: 0, fails: 0 }));
  const forwarded = new Map<number, number>();
  let next = 0;
  const pick = (tried: ReadonlySet<number>): Backend | undefined => {
    for (let i = 0; i < backends.length; i++) {
      const backend = backends[(next + i) % backends.length];
      if (backend && backend.up && !tried.has(backend.port)) {
        next = (next + i + 1) % backends.length;
        return backend;
      }
    }
    return undefined;
  };
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const tried = new Set<number>();
      const attempt = (): void => {
        const backend = pick(tried);
        if (!backend) {
          outgoing.writeHead(503, { 'content-type': 'text/plain' }).end('no server is available');
          return;
        }
        tried.add(backend.port);
        const host = (incoming.headers.host ?? '').replace(/:\d+$/, '');
        const upstream = request({ agent: false, host: '127.0.0.1', port: backend.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host } }, (answer: IncomingMessage) => {
          forwarded.set(backend.port, (forwarded.get(backend.port) ?? 0) + 1);
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          answer.on('error', () => outgoing.destroy());
        });
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'ECONNREFUSED') {
            backend.up = false; // nothing was sent: another server takes it
            attempt();
          } else if (!outgoing.headersSent) {
            outgoing.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
          } else {
            outgoing.destroy();
          }
        });
        upstream.end(body);
      };
      attempt();
    });
  });
  const check = (backend: Backend): void => {
    const probe = request({ host: '127.0.0.1', port: backend.port, path: '/api/v3/health', headers: { host: '127.0.0.1' }, timeout: 900 }, (answer) => {
      answer.resume();
      const ok = answer.statusCode === 200;
      backend.passes = ok ? backend.passes + 1 : 0;
      backend.fails = ok ? 0 : backend.fails + 1;
      if (backend.passes >= 2) backend.up = true;
      if (backend.fails >= 2) backend.up = false;
    });
    probe.on('timeout', () => probe.destroy());
    probe.on('error', () => {
      backend.passes = 0;
      backend.fails += 1;
      if (backend.fails >= 2) backend.up = false;
    });
    probe.end();
  };
  const checks = setInterval(() => backends.forEach(check), 1000);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    backends,
    forwarded,
    close: async () => {
      clearInterval(checks);
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    },
  };
}

/** the folder of the run's cluster's Unix socket (Debian's: /run/postgresql) */
async function socketDirectory(): Promise<string> {
  const admin = new pg.Client({ connectionString: baseUrl() });
  await admin.connect();
  try {
    const directory = (await admin.query<{ unix_socket_directories: string }>('SHOW unix_socket_directories')).rows[0]?.unix_socket_directories ?? '';
    expect(directory).toMatch(/^\//);
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

describe.skipIf(!postgresAvailable())(postgresSuite('the hub recipe: two serve --database processes behind a proxy, a terminal selling through it'), () => {
  it('orders reach the hub exactly once, also when one hub process is killed mid-way and in a rolling restart', { timeout: 240_000 }, async () => {
    // 1. the database (the recipe: createuser + createdb on Debian's postgresql); empty, the first process migrates
    // it. Reached as the recipe reaches it: through the server's Unix socket (peer auth there; trust here), no password.
    const tcp = new URL(await createTestDatabase());
    const database = `postgres:///${tcp.pathname.slice(1)}?host=${await socketDirectory()}&port=${tcp.port}&user=${tcp.username}`;
    const root = mkdtempSync(join(tmpdir(), 'kassa-hub-recipe-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const hub1 = join(root, 'hub-1');
    const hub2 = join(root, 'hub-2');
    const keysData = join(root, 'keys');
    const env = { KASSA_DATABASE: database, KASSA_STAFF_PIN_HASH: testStaffPinHash() };
    const catalog = catalogFile();
    cleanups.push(() => catalog.remove());

    // 2. keys made once, on the database (no key command touches --data)
    const adminKey = await keysCommand(['create', '--data', keysData, '--name', 'ops', '--scopes', 'admin'], env);
    const terminalKey = await keysCommand(['create', '--data', keysData, '--name', 'till-1', '--owner', 'till-1', '--scopes', SYNC_SCOPES.join(',')], env);
    expect(existsSync(keysData)).toBe(false);

    // 3. one channel master key, copied into each process's --data (the recipe's `install -m 600`)
    for (const dir of [hub1, hub2]) mkdirSync(dir);
    const made = join(hub1, MASTER_KEY_FILE);
    writeFileSync(made, randomBytes(32).toString('base64url'), { mode: 0o600 });
    copyFileSync(made, join(hub2, MASTER_KEY_FILE));

    // 4. two serve processes on the one database, started together
    const serveArgs = (data: string) => ['--data', data, '--no-demo', '--rate-limit', '0'];
    const hubs: ServeProcess[] = await Promise.all([startServe(serveArgs(hub1), 60_000, env), startServe(serveArgs(hub2), 60_000, env)]);
    cleanups.push(async () => {
      for (const hub of hubs) await kill(hub, 'SIGKILL');
    });
    const fingerprints = hubs.map((hub) => /"masterKey":"([0-9a-f]{12})"/.exec(hub.output())?.[1]);
    expect(fingerprints[0]).toMatch(/^[0-9a-f]{12}$/);
    expect(fingerprints[1]).toBe(fingerprints[0]);

    // 5. the proxy in front, health-checking both
    const proxy = await startProxy(hubs.map((hub) => Number(new URL(hub.url).port)));
    cleanups.push(() => proxy.close());

    // the venue's catalog, once, through the proxy: one process imports it, both serve it
    const imported = await httpApi(proxy.url, adminKey).request('PUT', '/catalog', { body: syncCatalog() });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    for (const hub of hubs) {
      const events = await httpApi(hub.url, adminKey).request<{ data: { id: string }[] }>('GET', '/events');
      expect(events.body.data.map((event) => event.id)).toEqual([FEST.eventId]);
    }

    // 6. a terminal pointed at the proxy's URL. It sells only places the hub handed it; with 300 in hand (the
    // default is 10) no sale waits for a top-up, which a request cut off by the kill below would delay a cycle
    // (the till would answer INVENTORY_EXHAUSTED meanwhile, as it should: that is not what is tested here).
    const terminal: TestEngine = await startTestEngine({ catalogFile: catalog.path, demo: false, allocation: 300, upstream: { url: proxy.url, key: terminalKey, pullIntervalMs: 60_000, ...FAST } });
    cleanups.push(() => terminal.close());

    const before = await sellMany(terminal, 20);
    await waitForSynced(terminal, 60_000);
    // round robin: both processes took part
    expect(hubs.map((hub) => proxy.forwarded.get(Number(new URL(hub.url).port)) ?? 0).every((count) => count > 0)).toBe(true);

    // 7. one hub process dies mid-way: killed after the fifth of twenty sales, not waited for, while the terminal
    // goes on selling and its outbox is being delivered
    const [victim, survivor] = hubs;
    if (!victim || !survivor) throw new Error('no hub processes');
    const survivorPort = Number(new URL(survivor.url).port);
    const survivorBefore = proxy.forwarded.get(survivorPort) ?? 0;
    // (no box seats here: a seat is asked of the hub the moment it is picked, and one asked of the process as it dies
    // is refused at the till — the sales that need no hub at that moment are the ones whose delivery is tested)
    const during: Order[] = [];
    let killed: Promise<number | null> | undefined;
    for (let i = 20; i < 40; i++) {
      during.push(await sell(terminal, i, { seats: false }));
      if (i === 24) killed = kill(victim, 'SIGKILL');
    }
    await killed;
    const after = await sellMany(terminal, 10, 40);
    const synced = await waitForSynced(terminal, 90_000);
    expect(synced).toMatchObject({ waiting: 0, conflicts: [], upstreamKind: 'hub' });
    expect(proxy.backends[0]?.up).toBe(false);
    expect(proxy.forwarded.get(survivorPort) ?? 0).toBeGreaterThan(survivorBefore);

    // 8. the rolling restart of an update (`systemctl restart` of one unit, then the other): the killed process
    // comes back on its port, the proxy's checks take it back, and the other stops gracefully (SIGTERM) mid-way
    const victimPort = Number(new URL(victim.url).port);
    const back = await startServe([...serveArgs(hub1), '--port', String(victimPort)], 60_000, env);
    hubs.push(back);
    for (let waited = 0; proxy.backends[0]?.up !== true; waited += 100) {
      if (waited > 10_000) throw new Error('the proxy did not take the restarted process back');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const backBefore = proxy.forwarded.get(victimPort) ?? 0;
    const rolling: Order[] = [];
    let stopped: Promise<number | null> | undefined;
    for (let i = 50; i < 70; i++) {
      rolling.push(await sell(terminal, i, { seats: false }));
      if (i === 54) stopped = kill(survivor, 'SIGTERM');
    }
    expect(await stopped).toBe(0);
    const last = await sellMany(terminal, 5, 70);
    expect(await waitForSynced(terminal, 90_000)).toMatchObject({ waiting: 0, conflicts: [] });
    expect(proxy.forwarded.get(victimPort) ?? 0).toBeGreaterThan(backBefore);

    const local = [...before, ...during, ...after, ...rolling, ...last];
    const arrived = importedOrders(await hubOrders(proxy.url, adminKey));
    const references = arrived.map((order) => order.payment.reference ?? '');
    expect(references.filter((reference, index) => references.indexOf(reference) !== index)).toEqual([]);
    expect(new Set(references)).toEqual(new Set(local.map((order) => order.id)));
    expect(arrived).toHaveLength(local.length);
    for (const order of arrived) expect(order.status).toBe('confirmed');
  });
});
