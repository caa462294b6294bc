import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { immediate, immediateWithoutSync, openDatabase } from '../../../engine/store/db';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-db-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const MIGRATIONS = readdirSync(new URL('../../../engine/store/migrations/', import.meta.url)).filter((name) => name.endsWith('.sql')).sort();

describe('openDatabase', () => {
  it('keeps a sale through a power cut: WAL, synchronous=FULL, foreign keys, a busy timeout', () => {
    const db = openDatabase(fresh());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    db.close();
  });

  it('runs every migration in order on a new database and none twice', () => {
    const dir = fresh();
    const db = openDatabase(dir);
    expect(db.pragma('user_version', { simple: true })).toBe(Number(MIGRATIONS.at(-1)?.slice(0, 4)));
    db.close();
    const again = openDatabase(dir);
    expect(again.pragma('user_version', { simple: true })).toBe(Number(MIGRATIONS.at(-1)?.slice(0, 4)));
    again.close();
  });

  it('migrates an older database forward and keeps its data', () => {
    const dir = fresh();
    const old = new Database(join(dir, 'kassa.sqlite'));
    const first = MIGRATIONS[0];
    if (!first) throw new Error('no migrations');
    old.exec(readFileSync(new URL(`../../../engine/store/migrations/${first}`, import.meta.url), 'utf8'));
    old.pragma('user_version = 1');
    old.prepare("INSERT INTO api_keys (id, name, hash, scopes, created_at) VALUES ('k1', 'old', 'h', '[]', 'now')").run();
    old.close();

    const db = openDatabase(dir);
    // user_version is the number of the newest migration (numbers may have gaps)
    expect(db.pragma('user_version', { simple: true })).toBe(Number(MIGRATIONS.at(-1)?.slice(0, 4)));
    expect(db.prepare('SELECT name FROM api_keys').get()).toEqual({ name: 'old' });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'orders'").get()).toEqual({ name: 'orders' });
    db.close();
  });

  it('rolls a failed write transaction back whole and refuses async work inside one', () => {
    const db = openDatabase(fresh());
    expect(() =>
      immediate(db, () => {
        db.prepare("INSERT INTO api_keys (id, name, hash, scopes, created_at) VALUES ('k1', 'a', 'h1', '[]', 'now')").run();
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.prepare('SELECT COUNT(*) AS n FROM api_keys').get()).toEqual({ n: 0 });
    expect(() => immediate(db, () => Promise.resolve(1))).toThrow(/promise/i);
    db.close();
  });
});

describe('immediateWithoutSync', () => {
  const syncOf = (db: Database.Database) => db.pragma('synchronous', { simple: true });

  it('commits with synchronous=NORMAL and puts FULL back, after a commit and after a rollback', () => {
    const db = openDatabase(fresh());
    db.exec('CREATE TABLE t (x INTEGER NOT NULL)');
    const seen = immediateWithoutSync(db, () => {
      db.prepare('INSERT INTO t (x) VALUES (1)').run();
      return syncOf(db);
    });
    expect(seen).toBe(1); // NORMAL inside
    expect(syncOf(db)).toBe(2); // FULL again
    expect(() => immediateWithoutSync(db, () => {
      db.prepare('INSERT INTO t (x) VALUES (2)').run();
      throw new Error('refused');
    })).toThrow('refused');
    expect(syncOf(db)).toBe(2);
    expect(db.prepare('SELECT x FROM t').pluck().all()).toEqual([1]);
    db.close();
  });

  it('under group commit (NORMAL already) leaves NORMAL, even after a call made while the database was at FULL', () => {
    const db = openDatabase(fresh());
    db.exec('CREATE TABLE t (x INTEGER NOT NULL)');
    immediateWithoutSync(db, () => db.prepare('INSERT INTO t (x) VALUES (1)').run()); // at FULL: restored to FULL
    expect(syncOf(db)).toBe(2);
    db.pragma('synchronous = NORMAL'); // what group commit sets once the engine starts
    immediateWithoutSync(db, () => db.prepare('INSERT INTO t (x) VALUES (2)').run());
    expect(syncOf(db)).toBe(1); // not the FULL seen by the first call: group commit stays on
    db.close();
  });

  it('waits for the disk as usual where the database is not in WAL mode', () => {
    const db = new Database(join(fresh(), 'journal.sqlite'));
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = FULL');
    expect(immediateWithoutSync(db, () => syncOf(db))).toBe(2);
    db.close();
  });
});
