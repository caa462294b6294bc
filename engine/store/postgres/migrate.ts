import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * The session advisory lock every Kassa process takes to migrate a database: the bytes of "KassaMig" as one
 * signed 64-bit key (0x4B617373614D6967), a string because it is past JavaScript's 2^53.
 */
export const MIGRATION_LOCK_KEY = '5431749564976425319';

/**
 * Runs every `NNNN-name.sql` in `dir` newer than the database's version, in order, each in its own transaction
 * together with the new version, and answers the version the database is at afterwards.
 *
 * The version lives in `kassa_schema` (one row, `version INTEGER NOT NULL`; 0 before the first migration, 16 after
 * the baseline — PostgreSQL starts at 16, later migrations are numbered as their SQLite twins).
 *
 * Once per database, whichever process starts first: the whole run holds `pg_advisory_lock(MIGRATION_LOCK_KEY)`
 * on one client, so a second process starting at the same moment waits on the lock, then reads the version the
 * first one left and finds nothing to do. A session lock (not a transaction one) because the run spans several
 * transactions; it is released at the end, and, should the run fail or the process die, by the end of the
 * client's session (a failed run's client is destroyed, not returned to the pool). A migration that fails rolls
 * back alone: the versions before it stay applied, and the error is thrown.
 */
export async function migratePostgres(pool: pg.Pool, dir: string = MIGRATIONS_DIR): Promise<{ version: number; applied: number[] }> {
  const files = readdirSync(dir).filter((name) => /^\d{4}-.+\.sql$/.test(name)).sort();
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    await client.query('BEGIN');
    await client.query('CREATE TABLE IF NOT EXISTS kassa_schema (version INTEGER NOT NULL)');
    await client.query('INSERT INTO kassa_schema (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM kassa_schema)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM kassa_schema');
    await client.query('COMMIT');
    let current = rows[0]?.version ?? 0;
    const applied: number[] = [];
    for (const file of files) {
      const version = Number(file.slice(0, 4));
      if (version <= current) continue;
      const sql = readFileSync(join(dir, file), 'utf8');
      await client.query('BEGIN');
      await client.query(sql); // no parameters: the simple protocol, which runs a file of several statements
      await client.query('UPDATE kassa_schema SET version = $1', [version]);
      await client.query('COMMIT');
      current = version;
      applied.push(version);
    }
    await client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
    client.release();
    return { version: current, applied };
  } catch (error) {
    // destroying the connection ends its session: any open transaction rolls back and the lock is released
    client.release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}
