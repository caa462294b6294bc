import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../engine/store/postgres/connect';
import { baseUrl, createTestDatabase, postgresAvailable, postgresSuite } from '../helpers/postgres';

describe.skipIf(!postgresAvailable())(postgresSuite('openPostgres'), () => {
  it('survives the server ending an idle connection, tells onIdleError, and serves the next query', async () => {
    const errors: Error[] = [];
    const pool = await openPostgres(await createTestDatabase(), { onIdleError: (error) => errors.push(error) });
    try {
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'); // leaves one idle client
      const admin = new pg.Client({ connectionString: baseUrl() });
      await admin.connect();
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      await admin.end();
      await expect.poll(() => errors.length).toBe(1);
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      const names = await pool.query("SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()");
      expect(names.rows).toEqual([{ application_name: 'kassa' }]);
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
