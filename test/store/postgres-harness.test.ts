import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, postgresAvailable, postgresSuite } from '../helpers/postgres';

describe.skipIf(!postgresAvailable())(postgresSuite('the test PostgreSQL cluster'), () => {
  it('gives each caller a fresh, empty database on a server that syncs its commits', async () => {
    const [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    expect(first).not.toBe(second);
    const client = new pg.Client({ connectionString: first });
    await client.connect();
    try {
      const settings = await client.query<{ name: string; setting: string }>(
        "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'max_connections', 'listen_addresses') ORDER BY name");
      expect(settings.rows).toEqual([
        { name: 'fsync', setting: 'on' },
        { name: 'listen_addresses', setting: '127.0.0.1' },
        { name: 'max_connections', setting: '300' },
      ]);
      const tables = await client.query("SELECT 1 FROM information_schema.tables WHERE table_schema = 'public'");
      expect(tables.rowCount).toBe(0);
    } finally {
      await client.end();
    }
    await dropTestDatabase(second);
    const migrated = new pg.Client({ connectionString: await createTestDatabase({ migrated: true }) });
    await migrated.connect();
    // the template is at the newest migration of engine/store/postgres/migrations
    const newest = Math.max(...readdirSync(join(import.meta.dirname, '../../engine/store/postgres/migrations')).filter((name) => /^\d{4}-.+\.sql$/.test(name)).map((name) => Number(name.slice(0, 4))));
    expect((await migrated.query('SELECT version FROM kassa_schema')).rows).toEqual([{ version: newest }]);
    await migrated.end();
    const gone = new pg.Client({ connectionString: second });
    await expect(gone.connect()).rejects.toThrow(/does not exist/);
  });
});
