import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../engine/store/postgres/connect';
import { baseUrl, createTestDatabase, postgresAvailable, postgresSuite } from '../helpers/postgres';

describe.skipIf(!postgresAvailable())(postgresSuite('openPostgres'), () => {
  it('survives the server ending an idle connection, tells onConnectionError, and serves the next query', async () => {
    const errors: Error[] = [];
    const pool = await openPostgres(await createTestDatabase(), { onConnectionError: (error) => errors.push(error) });
    try {
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'); // leaves one idle client
      const admin = new pg.Client({ connectionString: baseUrl() });
      await admin.connect();
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      await admin.end();
      await expect.poll(() => errors.length).toBeGreaterThan(0);
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      const names = await pool.query("SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()");
      expect(names.rows).toEqual([{ application_name: 'kassa' }]);
    } finally {
      await pool.end();
    }
  });
});

describe.skipIf(!postgresAvailable())(postgresSuite('openPostgres, a connection lost mid-transaction'), () => {
  it('does not crash the process: the transaction fails, the client is dropped, the pool goes on', async () => {
    const errors: Error[] = [];
    const pool = await openPostgres(await createTestDatabase(), { onConnectionError: (error) => errors.push(error) });
    try {
      const client = await pool.connect();
      await client.query('BEGIN');
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const admin = new pg.Client({ connectionString: baseUrl() });
      await admin.connect();
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      await admin.end();
      // between two statements: no query to fail, only the events (the server's FATAL, then the end of the connection)
      await expect.poll(() => errors.length).toBeGreaterThan(0);
      await expect(client.query('COMMIT')).rejects.toThrow();
      client.release();
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      expect(pool.totalCount).toBe(1);
    } finally {
      await pool.end();
    }
  });
});

describe('openPostgres without a server', () => {
  it('refuses a URL that is not PostgreSQL\'s without showing its password', async () => {
    await expect(openPostgres('mysql://kassa:s3cret@db/kassa')).rejects.toThrow(/^not a PostgreSQL URL.*mysql:\/\/kassa:\*\*\*@db\/kassa$/);
  });

  it('fails fast when nothing answers', async () => {
    const started = Date.now();
    await expect(openPostgres('postgres://kassa@127.0.0.1:1/kassa', { connectionTimeoutMillis: 1_000 })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
