import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { isScope } from '../../engine/domain/scopes';
import { startEngine, type EngineOptions } from '../../engine/start';
import { loadMasterKey } from '../../engine/store/channel-repo';
import type { KeyOptions } from '../../engine/store/key-repo';
import { openStore } from '../../engine/store/open';
import type { Repos, Store } from '../../engine/store/port';
import { createTestDatabase } from './postgres';
import { hashPin } from '../../engine/staff/pin';

/** The owner the standard test keys share (one till's keys, split by scope). */
export const TEST_OWNER = 'test-till';

/** The staff PIN every test engine signs the box office in with (unless a test passes its own `staffPinHash`). */
export const TEST_STAFF_PIN = '246810';
let testPinHash: string | undefined;
/** its scrypt hash, made once per test file (scrypt is slow on purpose) */
export const testStaffPinHash = (): string => (testPinHash ??= hashPin(TEST_STAFF_PIN));

/**
 * A real engine for a test: its own SQLite file in a fresh temp folder, the real HTTP server on a free
 * loopback port, keys created through the same repository the `keys` command uses.
 */

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ErrorEnvelope {
  error: { type: string; code: string; message: string; param?: string; details?: Record<string, unknown> };
}

export interface RequestOptions {
  body?: unknown;
  /** raw body text, sent as is (for malformed JSON) */
  rawBody?: string;
  /** API key to send; defaults to the all-scopes key; null sends none */
  key?: string | null;
  headers?: Record<string, string>;
}

export interface TestEngine {
  url: string;
  dataDir: string;
  /** the engine's `--database`: a PostgreSQL URL under KASSA_TEST_DATABASE=postgres, undefined for SQLite in `dataDir` */
  database: string | undefined;
  keys: { admin: string; carts: string; catalogRead: string; catalogWrite: string; ordersRead: string };
  /** every log line the engine wrote, as text */
  logs: () => string;
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** creates another key in this engine's database: its own owner, unless `options.owner` names one (TEST_OWNER: the till's) */
  createKey(scopes: string[], options?: KeyOptions): Promise<string>;
  /** stops the engine (its data stays), as a crash or an update would */
  stop(): Promise<void>;
  /** starts it again on the same data folder and port — a new UI key, the old one revoked */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** True when this run's engines are on PostgreSQL (KASSA_TEST_DATABASE=postgres: the `postgres` vitest project). */
export const onPostgres: boolean = process.env.KASSA_TEST_DATABASE === 'postgres';

/**
 * A suite's name for a test kept on SQLite only: on PostgreSQL it reports itself skipped with `reason` in its
 * name. Use as `describe.skipIf(onPostgres)(sqliteOnly('…', 'why'), …)`.
 */
export function sqliteOnly(name: string, reason: string): string {
  return onPostgres ? `${name} (skipped on PostgreSQL: ${reason})` : name;
}

export async function startTestEngine(options: Partial<EngineOptions> = {}): Promise<TestEngine> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'kassa-test-'));
  // KASSA_TEST_DATABASE=postgres: every engine on a fresh PostgreSQL database of the run's throwaway cluster
  // (one per data folder: an engine started again on a data folder it had before finds its database again)
  const database = options.database ?? (onPostgres ? await databaseOf(dataDir) : undefined);
  // One till's keys, split by scope: they share an owner, so each sees the carts and orders of the others
  // (ownership tests make keys of their own with createKey).
  const till = { owner: TEST_OWNER };
  const keys = await withKeys(dataDir, database, async (repo) => ({
    admin: (await repo.create('admin', ['admin'], till)).key,
    carts: (await repo.create('carts', ['carts:write'], till)).key,
    catalogRead: (await repo.create('catalog-read', ['catalog:read'], till)).key,
    catalogWrite: (await repo.create('catalog-write', ['catalog:write'], till)).key,
    ordersRead: (await repo.create('orders-read', ['orders:read'], till)).key,
  }));

  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const pin = { staffPinHash: testStaffPinHash() };
  let engine: Awaited<ReturnType<typeof startEngine>> | undefined = await startEngine({ port: 0, rateLimit: 0, logger: pino({ level: 'info' }, sink), ...pin, ...options, ...(database !== undefined && { database }), dataDir });
  const { url, port } = engine;

  return {
    url,
    dataDir,
    database,
    keys,
    logs: () => lines.join(''),
    async createKey(scopes, keyOptions) {
      return withKeys(dataDir, database, async (repo) => (await repo.create('extra', scopes.filter(isScope), keyOptions)).key);
    },
    async request<T>(method: string, path: string, request: RequestOptions = {}): Promise<ApiResponse<T>> {
      const headers: Record<string, string> = { ...request.headers };
      const key = request.key === undefined ? keys.admin : request.key;
      if (key !== null) headers['x-svc-api-key'] = key;
      let body: string | undefined = request.rawBody;
      if (request.body !== undefined) body = JSON.stringify(request.body);
      if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      const response = await fetch(`${url}/api/v3${path}`, { method, headers, body });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
    },
    async stop() {
      await engine?.close();
      engine = undefined;
    },
    async start() {
      if (engine) return;
      engine = await startEngine({ rateLimit: 0, logger: pino({ level: 'info' }, sink), ...pin, ...options, ...(database !== undefined && { database }), port, dataDir });
      // fetch's pool may still hold a keep-alive socket to the engine stopped on this port and send the next request
      // on it ("other side closed"): health requests use up such sockets first, so the test's requests go to the
      // engine just started (one that answers no health request at all still fails the test's next request)
      for (let tries = 0; tries < 3; tries++) {
        try {
          await (await fetch(`${url}/api/v3/health`)).arrayBuffer();
          break;
        } catch {
          // a socket to the stopped engine: discarded by the failure
        }
      }
    },
    async close() {
      await engine?.close();
      engine = undefined;
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** the PostgreSQL database of each data folder this worker started an engine on */
const databases = new Map<string, Promise<string>>();
function databaseOf(dataDir: string): Promise<string> {
  let database = databases.get(dataDir);
  if (database === undefined) {
    database = createTestDatabase({ migrated: true });
    databases.set(dataDir, database);
  }
  return database;
}

/** The keys of the engine's database (its store, opened beside the running engine and closed again). */
async function withKeys<T>(dataDir: string, database: string | undefined, use: (keys: Repos['keys']) => Promise<T>): Promise<T> {
  return withStore({ dataDir, database }, (store) => use(store.repos.keys));
}

/**
 * Opens the store of an engine's database (SQLite in `dataDir`, or its PostgreSQL database) beside the running
 * engine, hands it to `use` and closes it again: for tests that check what the engine wrote through the port.
 */
export async function withStore<T>(engine: Pick<TestEngine, 'dataDir' | 'database'>, use: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(engine.database, { dataDir: engine.dataDir, masterKey: loadMasterKey(engine.dataDir), groupCommit: false });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}
