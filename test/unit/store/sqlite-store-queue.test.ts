import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../engine/store/db';
import { createSqliteStore } from '../../../engine/store/sqlite-store';

/**
 * The SQLite adapter runs one transaction at a time on its one connection: a transaction that comes while
 * another is under way waits for it, and so does a statement outside any. Several waiting at once must still
 * go one by one — when the one under way ends, the first waiter takes the connection before anyone else can
 * look (found by the bench: 50 concurrent checkouts made two transactions begin together, "cannot start a
 * transaction within a transaction", and the checkout answered 502).
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open() {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-queue-'));
  dirs.push(dir);
  return createSqliteStore(openDatabase(dir), { groupCommit: false });
}

describe('SQLite store: one transaction at a time', () => {
  it('runs many transactions that wait at once one after another, each committed', async () => {
    const store = open();
    try {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.transaction(async (tx) => {
        await tx.keys.create(`key ${i}`, ['admin']);
        await tx.keys.list();
        return i;
      })));
      expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(await store.repos.keys.list()).toHaveLength(20);
    } finally {
      await store.close();
    }
  });

  it('never runs a statement outside a transaction inside another transaction that began meanwhile', async () => {
    const store = open();
    try {
      const seen: number[] = [];
      const work: Promise<unknown>[] = [];
      for (let round = 0; round < 10; round += 1) {
        // one under way; reads waiting for it, and behind them a transaction that writes, then rolls back
        work.push(store.transaction(async (tx) => tx.keys.list()));
        for (let i = 0; i < 3; i += 1) work.push(store.repos.keys.list().then((keys) => seen.push(keys.length)));
        work.push(store.transaction(async (tx) => {
          await tx.keys.create('rolled back', ['admin']);
          await tx.keys.list();
          throw new Error('rolled back on purpose');
        }).catch(() => undefined));
      }
      await Promise.all(work);
      // a read that ran inside the rolled-back transaction would have seen its key
      expect(seen.every((n) => n === 0)).toBe(true);
      expect(await store.repos.keys.list()).toHaveLength(0);
    } finally {
      await store.close();
    }
  });
});
