import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { CatalogDocument } from '../../engine/contract/catalog';
import { createTestDatabase } from '../helpers/postgres';
import { seedDatabase, startHub, type Hub } from './hub';

/**
 * A hub for one describe block of test/pg: before its tests a fresh migrated PostgreSQL database with `catalog`
 * and one key per name of `keyNames`, `processes` serve processes on it (`args` added to each), and a client on
 * the database for the tests' own queries; after them all of it closed.
 */
export interface HubSuite {
  /** the hub, once started */
  started: () => Hub;
  /** the key made for `name` */
  keyOf: (name: string) => string;
  /** rows of one query on the hub's database */
  query: <T extends pg.QueryResultRow>(sql: string, values?: unknown[]) => Promise<T[]>;
}

/** Registers the hub's beforeAll and afterAll in the calling describe block (call it inside one). */
export function hubSuite(options: { catalog: CatalogDocument; keyNames: readonly string[]; processes: number; args?: readonly string[] }): HubSuite {
  let hub: Hub | undefined;
  let db: pg.Client | undefined;
  beforeAll(async () => {
    const url = await createTestDatabase({ migrated: true });
    const keys = await seedDatabase(url, options.catalog, options.keyNames);
    hub = await startHub(url, options.processes, keys, options.args);
    db = new pg.Client({ connectionString: url });
    await db.connect();
  }, 90_000);
  afterAll(async () => {
    await hub?.close();
    await db?.end();
  });
  return {
    started: () => {
      if (!hub) throw new Error('the hub did not start');
      return hub;
    },
    keyOf: (name) => {
      const key = hub?.keys.get(name);
      if (key === undefined) throw new Error(`no key ${name}`);
      return key;
    },
    query: async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => {
      if (!db) throw new Error('no database connection');
      return (await db.query<T>(sql, values)).rows;
    },
  };
}
