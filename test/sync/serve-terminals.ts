import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../engine/store/db';
import { createKeyRepo } from '../../engine/store/key-repo';
import type { Scope } from '../../engine/domain/scopes';
import { waitForStatus, type Api } from './harness';

/**
 * What the sync tests that run a hub and its terminals as real `serve` processes share (issue #26): data folders
 * made and removed, keys made in a folder before its engine starts, the common arguments, and waiting for a terminal
 * to hold places (allocations at the shipped defaults).
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
