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
 * A second connection to `db`'s file whose commits do not wait for the disk (synchronous=NORMAL in WAL): for
 * the built-in payment simulator's ledger, which stands for a provider's books kept on the provider's side,
 * not on the till's disk. Its frames go into the same WAL as the engine's, so the engine's next commit — the
 * settlement that follows every charge — fsyncs them along with the order; a process crash keeps them either
 * way (the OS holds the written WAL), and a power cut can only lose a charge whose order was lost with it.
 */
export function openLedgerConnection(db: Db): Db {
  const ledger = new Database(db.name);
  ledger.pragma('synchronous = NORMAL');
  ledger.pragma('foreign_keys = ON');
  ledger.pragma('busy_timeout = 5000');
  return ledger;
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
