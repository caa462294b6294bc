import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { TestEngine } from './engine';

/** int8 (COUNT, epoch ms) and numeric (SUM of BIGINT) as JavaScript numbers, as SQLite answers them */
const NUMBERS = new Set([20, 1700]);
const types: pg.CustomTypesConfig = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => (NUMBERS.has(oid) ? Number : pg.types.getTypeParser(oid, format)),
};

/**
 * Runs one read-only query on an engine's database — its SQLite file, or its PostgreSQL database under
 * KASSA_TEST_DATABASE=postgres — and answers the rows: for tests that check what the engine wrote where the
 * API shows nothing (a stored attempt's state, a counter). Write SQL both dialects read alike, with `?`
 * placeholders (numbered for PostgreSQL here). The query runs in a read-only transaction: a test never writes
 * through it.
 */
export async function readRows<R>(engine: Pick<TestEngine, 'dataDir' | 'database'>, sql: string, params: readonly unknown[] = []): Promise<R[]> {
  if (engine.database === undefined) {
    const db = new Database(join(engine.dataDir, 'kassa.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return db.prepare<unknown[], R>(sql).all(...params);
    } finally {
      db.close();
    }
  }
  let n = 0;
  const numbered = sql.replace(/\?/g, () => `$${++n}`);
  const client = await poolOf(engine.database).connect();
  try {
    await client.query('BEGIN READ ONLY');
    const result = await client.query<R & pg.QueryResultRow>(numbered, [...params]);
    await client.query('ROLLBACK');
    return result.rows;
  } finally {
    client.release();
  }
}

/**
 * One connection per database, kept for the test file's next read (a property test reads after every step);
 * idle, it lets the process exit and closes after a second.
 */
const pools = new Map<string, pg.Pool>();
function poolOf(url: string): pg.Pool {
  let pool = pools.get(url);
  if (pool === undefined) {
    pool = new pg.Pool({ connectionString: url, types, max: 1, idleTimeoutMillis: 1_000, allowExitOnIdle: true });
    pools.set(url, pool);
  }
  return pool;
}

/** The one number a `SELECT COUNT(*) AS n …` (or any query answering one row with a numeric `n`) answers. */
export async function readNumber(engine: Pick<TestEngine, 'dataDir' | 'database'>, sql: string, params: readonly unknown[] = []): Promise<number> {
  const [row] = await readRows<{ n: number | null }>(engine, sql, params);
  return Number(row?.n ?? 0);
}
