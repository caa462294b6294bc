import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../engine/store/db';
import { createKeyRepo } from '../../engine/store/key-repo';
import type { Scope } from '../../engine/domain/scopes';
import { startScriptedProxy, type ScriptedProxy, type ScriptedProxyOptions } from '../helpers/scripted-proxy';
import { kill, startServe, type ServeProcess } from '../helpers/serve-process';
import { SYNC_SCOPES, catalogFile, httpApi, waitForStatus, type Api } from './harness';

/**
 * What the sync tests that run a hub and its terminals as real `serve` processes share (issue #26): data folders
 * made and removed, keys made in a folder before its engine starts, the common arguments, waiting for a terminal
 * to hold places (allocations at the shipped defaults), and a hub with one till behind a scripted proxy.
 */

/** Data folders named `kassa-<prefix>-<name>-…` in the temp folder, removed together. */
export function tempDirs(prefix: string): { make(name: string): string; removeAll(): void } {
  const made: string[] = [];
  return {
    make(name) {
      const dir = mkdtempSync(join(tmpdir(), `kassa-${prefix}-${name}-`));
      made.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A key made in a data folder before its engine starts (the folder's database, migrated). */
export function keyIn(dir: string, name: string, scopes: readonly Scope[]): string {
  const db = openDatabase(dir);
  try {
    return createKeyRepo(db).create(name, scopes).key;
  } finally {
    db.close();
  }
}

/** The arguments every engine of these tests runs with: the test's catalog, no demo, no rate limit, quiet logs. */
export const serveArgs = (catalogPath: string): string[] => ['--no-demo', '--catalog', catalogPath, '--rate-limit', '0', '--log-level', 'warn'];

/** Waits until a terminal holds places its hub granted it (it sells only those). */
export async function holdsPlaces(api: Api, timeoutMs = 30_000): Promise<void> {
  await waitForStatus(api, (status) => ((status as { holdings?: { inHand: number }[] }).holdings ?? []).some((row) => row.inHand > 0), timeoutMs, 'the terminal to hold places');
}

/** A hub and one till syncing to it through a scripted proxy (scripted-proxy.ts), every one a real `serve` process. */
export interface HubAndTill {
  readonly hubDir: string;
  readonly tillDir: string;
  readonly hubApi: Api;
  readonly tillApi: Api;
  readonly proxy: ScriptedProxy;
  close(): Promise<void>;
}

/**
 * Starts a hub (on the sync tests' catalog, catalogFile()) and a till whose upstream is the hub behind a proxy
 * scripted by `script`; both at the shipped defaults, each with an admin key; the till's sync key made at the hub.
 */
export async function startHubAndTill(prefix: string, script: Omit<ScriptedProxyOptions, 'target'> = {}): Promise<HubAndTill> {
  const dirs = tempDirs(prefix);
  const catalog = catalogFile();
  const common = serveArgs(catalog.path);
  const hubDir = dirs.make('hub');
  const tillDir = dirs.make('till');
  const hubAdmin = keyIn(hubDir, 'hub-admin', ['admin']);
  const syncKey = keyIn(hubDir, 'till-sync', SYNC_SCOPES as Scope[]);
  const tillAdmin = keyIn(tillDir, 'till-admin', ['admin']);
  const started: ServeProcess[] = [];
  let proxy: ScriptedProxy | undefined;
  const close = async (): Promise<void> => {
    for (const proc of started.reverse()) await kill(proc, 'SIGTERM');
    await proxy?.close();
    dirs.removeAll();
    catalog.remove();
  };
  try {
    const hub = await startServe(['--data', hubDir, ...common], 30_000);
    started.push(hub);
    proxy = await startScriptedProxy({ ...script, target: hub.url });
    const till = await startServe(['--data', tillDir, ...common, '--upstream', proxy.url], 30_000, { KASSA_UPSTREAM_KEY: syncKey });
    started.push(till);
    return { hubDir, tillDir, hubApi: httpApi(hub.url, hubAdmin), tillApi: httpApi(till.url, tillAdmin), proxy, close };
  } catch (error) {
    await close();
    throw error;
  }
}
