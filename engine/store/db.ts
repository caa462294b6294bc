import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Db = Database.Database;

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * Opens (creating when new) the engine's database in `dataDir` with settings that keep a sale through a
 * power cut: WAL with synchronous=FULL, foreign keys on, a busy timeout for the keys CLI writing alongside
 * a running engine. Pending migrations run before anything else touches it.
 */
export function openDatabase(dataDir: string, migrationsDir: string = MIGRATIONS_DIR): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'kassa.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, migrationsDir);
  return db;
}

/**
 * Runs `work` as one write transaction (BEGIN IMMEDIATE) whose commit does not wait for the disk
 * (synchronous = NORMAL), for writes that may be lost at a power cut as long as what follows them is: in WAL
 * mode a commit is still all or nothing, and the log is replayed in order, so whatever next waits for the disk
 * — a commit with synchronous = FULL, or group commit's sync of the log (store/durability.ts) — makes this one
 * durable too; a process crash loses nothing either way (the OS holds what was written). Under group commit
 * every commit is already NORMAL, and this is the same as `immediate`. The setting is put back before anything else runs: the transaction is synchronous.
 * Only in WAL mode: with a rollback journal (a file system that refused WAL) NORMAL may corrupt the database
 * at a power cut, so there the commit waits for the disk as every other.
 */
export function immediateWithoutSync<T>(db: Db, work: () => T): T {
  const restore = relaxSynchronous(db);
  try {
    return immediate(db, work);
  } finally {
    restore();
  }
}

/**
 * Sets synchronous = NORMAL for the next commit (see immediateWithoutSync) and answers what puts the setting
 * back; nothing to do where the setting is already NORMAL or lower, or outside WAL mode.
 */
export function relaxSynchronous(db: Db): () => void {
  // read each time, never cached: restoring a stale FULL would switch group commit off for good
  const setting = Number(db.pragma('synchronous', { simple: true }));
  if (setting <= 1 || !walMode(db)) return () => undefined;
  // db.pragma each time: a prepared PRAGMA statement run again does not reliably apply its setting
  db.pragma('synchronous = NORMAL');
  return () => void db.pragma(`synchronous = ${setting}`);
}

/** per database: in WAL mode or not (fixed once it is open) */
const walModes = new WeakMap<Db, boolean>();
function walMode(db: Db): boolean {
  let wal = walModes.get(db);
  if (wal === undefined) {
    wal = db.pragma('journal_mode', { simple: true }) === 'wal';
    walModes.set(db, wal);
  }
  return wal;
}

/** Runs every migrations/NNNN-name.sql newer than the database's user_version, each in its own transaction. */
export function migrate(db: Db, migrationsDir: string = MIGRATIONS_DIR): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  const files = readdirSync(migrationsDir).filter((name) => /^\d{4}-.+\.sql$/.test(name)).sort();
  for (const file of files) {
    const version = Number(file.slice(0, 4));
    if (version <= current) continue;
    const sql = readFileSync(join(migrationsDir, file), 'utf8');
    immediate(db, () => {
      db.exec(sql);
      db.pragma(`user_version = ${version}`);
    });
  }
}

/**
 * Runs `work` as one write transaction taken with BEGIN IMMEDIATE. `work` is synchronous by type: an await
 * inside a transaction would let other requests interleave with it.
 */
export function immediate<T>(db: Db, work: () => T): T {
  return db.transaction(work).immediate();
}
