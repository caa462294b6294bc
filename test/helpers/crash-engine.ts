import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readNumber } from './db-rows';
import { onPostgres, withStore } from './engine';
import { createTestDatabase } from './postgres';
import { kill, startServe, type ServeProcess } from './serve-process';

/**
 * The setup of the crash tests (an engine process killed with SIGKILL, then started again on the same data):
 * a data folder, the engine's database (SQLite in that folder, or a fresh PostgreSQL database in the postgres
 * project), an admin key made in it, and `serve` processes on it that the rig kills when the test ends.
 */
export interface CrashRig {
  dataDir: string;
  /** the engine's database: `database` undefined means SQLite in `dataDir` */
  engine: { dataDir: string; database: string | undefined };
  /** an admin key ('till') */
  key: string;
  /** one number read from the engine's database (`SELECT … AS n`) */
  count(sql: string): Promise<number>;
  /** `serve --data dataDir [--database …] --rate-limit 0 …args`, killed with SIGKILL when the test ends */
  serve(args?: readonly string[]): Promise<ServeProcess>;
}

/** Runs `test` with a crash rig; afterwards every process it started is killed and the data folder removed. */
export async function withCrashRig(prefix: string, test: (rig: CrashRig) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const running: ServeProcess[] = [];
  try {
    const engine = { dataDir, database: onPostgres ? await createTestDatabase({ migrated: true }) : undefined };
    const database = engine.database === undefined ? [] : ['--database', engine.database];
    const key = await withStore(engine, async (store) => (await store.repos.keys.create('till', ['admin'])).key);
    await test({
      dataDir,
      engine,
      key,
      count: (sql) => readNumber(engine, sql),
      async serve(args = []) {
        const proc = await startServe(['--data', dataDir, ...database, '--rate-limit', '0', ...args]);
        running.push(proc);
        return proc;
      },
    });
  } finally {
    await Promise.all(running.map((proc) => kill(proc, 'SIGKILL')));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Polls `check` every 50 ms until it answers true; throws after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(50);
  }
}
