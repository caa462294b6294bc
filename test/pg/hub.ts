import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CatalogDocument } from '../../engine/contract/catalog';
import { loadMasterKey } from '../../engine/store/channel-repo';
import { openStore } from '../../engine/store/open';
import type { Repos } from '../../engine/store/port';
import { kill, startServe, type ServeProcess } from '../helpers/serve-process';

/**
 * A hub of several `serve` processes on one PostgreSQL database (contract §16), for test/pg: each process its
 * own data folder, the database named through KASSA_DATABASE (never in argv), the catalog and the keys written
 * into the database through the store before any process starts.
 */

export interface Hub {
  readonly processes: ServeProcess[];
  /** the API keys made before the start, by name */
  readonly keys: ReadonlyMap<string, string>;
  /** starts one more process like the others; answers its index */
  add(): Promise<number>;
  /** SIGKILLs every process still running and removes the data folders */
  close(): Promise<void>;
}

/** Writes `catalog` and one key per entry of `keyNames` (all scopes, one owner) into the database at `url`. */
export async function seedDatabase(url: string, catalog: CatalogDocument, keyNames: readonly string[]): Promise<Map<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-hub-seed-'));
  const store = await openStore(url, { dataDir: dir, masterKey: loadMasterKey(dir) });
  try {
    for await (const step of store.importCatalog(catalog)) void step;
    return new Map(await Promise.all(keyNames.map(async (name) => [name, await createKey(store.repos.keys, name)] as const)));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function createKey(keys: Repos['keys'], name: string): Promise<string> {
  return (await keys.create(name, ['admin'], { owner: 'hub-test' })).key;
}

/**
 * Starts `count` serve processes at once on the database at `url`, at the shipped defaults but the demo catalog
 * (`args` added to each: printers). `hub.add()` starts one more later; `close` ends them all.
 */
export async function startHub(url: string, count: number, keys: ReadonlyMap<string, string>, args: readonly string[] = []): Promise<Hub> {
  const dirs = Array.from({ length: count }, () => mkdtempSync(join(tmpdir(), 'kassa-hub-')));
  const start = (dir: string) => startServe(['--data', dir, '--no-demo', ...args], 60_000, { KASSA_DATABASE: url });
  const started = await Promise.allSettled(dirs.map(start));
  const processes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const add = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kassa-hub-'));
    dirs.push(dir);
    const proc = await start(dir);
    processes.push(proc);
    return processes.length - 1;
  };
  const close = async () => {
    await Promise.all(processes.map((proc) => kill(proc, 'SIGKILL')));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await close();
    throw failed.reason;
  }
  return { processes, keys, add, close };
}

export interface Answer<T = unknown> {
  /** 0: no answer (the connection was refused or cut, as when the process was killed) */
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
  readonly process: number;
}

/** One API call to process `index` of the hub; bounded at 15 s; a refused or cut connection answers status 0. */
export async function call<T = unknown>(hub: Hub, index: number, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
  const proc = hub.processes[index];
  if (!proc) throw new Error(`no process ${index}`);
  try {
    const response = await fetch(`${proc.url}/api/v3${path}`, {
      method,
      headers: { 'x-svc-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T, process: index };
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') throw new Error(`${method} ${path} on process ${index}: no answer within 15 s`);
    return { status: 0, headers: new Headers(), body: undefined as T, process: index };
  }
}

/** whether a process is still running */
export const alive = (proc: ServeProcess): boolean => proc.child.exitCode === null && proc.child.signalCode === null;
