import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { immediate, openDatabase, type Db } from '../../../engine/store/db';
import { groupCommit, type Durability } from '../../../engine/store/durability';

/**
 * Group commit (engine/store/durability.ts) on a real SQLite file: commits stop waiting for the disk, and
 * whenDurable() waits for one fdatasync of the log that started after the caller's commit, shared by every
 * caller that came while the one before ran.
 */
describe('group commit', () => {
  let dir: string;
  let db: Db;
  let durability: Durability;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kassa-durable-'));
    db = openDatabase(dir);
    db.exec('CREATE TABLE sales (n INTEGER NOT NULL)');
    durability = groupCommit(db);
  });
  afterEach(async () => {
    await durability.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const sell = (n: number) => immediate(db, () => db.prepare('INSERT INTO sales (n) VALUES (?)').run(n));

  it('commits no longer wait for the disk (synchronous = NORMAL) in WAL mode', () => {
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
  });

  it('nothing written since the last sync: nothing to wait for', async () => {
    await durability.whenDurable();
    expect(durability.syncs).toBe(0);
    sell(1);
    await durability.whenDurable();
    expect(durability.syncs).toBe(1);
    await durability.whenDurable();
    expect(durability.syncs).toBe(1);
  });

  it('50 sales committed at once are made durable by one or two syncs, not 50', async () => {
    const waits: Promise<void>[] = [];
    for (let n = 0; n < 50; n++) {
      sell(n);
      waits.push(durability.whenDurable());
    }
    await Promise.all(waits);
    // the first caller starts a sync; the 49 after it came while it ran and share the next one
    expect(durability.syncs).toBe(2);
  });

  it('a commit made while a sync runs waits for the next sync, which starts after it', async () => {
    sell(1);
    const first = durability.whenDurable();
    sell(2); // committed after the first sync started: that sync may not cover it
    let secondDone = false;
    const second = durability.whenDurable().then(() => {
      secondDone = true;
    });
    await first;
    expect(durability.syncs).toBe(1);
    expect(secondDone).toBe(false);
    await second;
    expect(durability.syncs).toBe(2);
    // what was written is all there for another connection, as after any commit
    const other = new Database(join(dir, 'kassa.sqlite'), { readonly: true });
    expect(other.prepare('SELECT COUNT(*) FROM sales').pluck().get()).toBe(2);
    other.close();
  });

  it('a caller with nothing written since the sync under way started needs no second sync', async () => {
    sell(1);
    const first = durability.whenDurable();
    // no commit in between: once the sync under way is done, everything written is on the disk
    const again = durability.whenDurable();
    await Promise.all([first, again]);
    expect(durability.syncs).toBe(1);
  });

  it('a database not in WAL mode waits for the disk at every commit, as before, and whenDurable has nothing to wait for', async () => {
    const journal = new Database(join(dir, 'journal.sqlite'));
    journal.pragma('journal_mode = DELETE');
    journal.pragma('synchronous = FULL');
    const plain = groupCommit(journal);
    expect(journal.pragma('synchronous', { simple: true })).toBe(2);
    journal.exec('CREATE TABLE t (x INTEGER)');
    await plain.whenDurable();
    expect(plain.syncs).toBe(0);
    await plain.close();
    journal.close();
  });

  it('closing waits for a sync under way; after it nothing more is promised', async () => {
    sell(1);
    const under = durability.whenDurable();
    await durability.close();
    await expect(under).resolves.toBeUndefined();
    expect(durability.syncs).toBe(1);
    sell(2);
    await expect(durability.whenDurable()).rejects.toThrow('closed');
  });

  it('closing syncs what a caller waiting for the next sync wrote: it is answered, not refused', async () => {
    sell(1);
    const under = durability.whenDurable();
    sell(2);
    // committed while the first sync runs: waits for the next one, which close must still make
    const queued = durability.whenDurable();
    await durability.close();
    await expect(under).resolves.toBeUndefined();
    await expect(queued).resolves.toBeUndefined();
    expect(durability.syncs).toBe(2);
    // closing twice is one close
    await durability.close();
  });
});
