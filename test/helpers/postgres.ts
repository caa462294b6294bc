import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** What the globalSetup (test/helpers/postgres-setup.ts) hands to the test files: the cluster's base URL, or why there is none. */
export interface ProvidedPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`, or null when PostgreSQL is absent */
  url: string | null;
  /** why `url` is null ('' when it is not) */
  reason: string;
  /** the database migrated once at the start of the run, to copy ('' without PostgreSQL) */
  template: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    kassaPostgres?: ProvidedPostgres;
  }
}

const provided: ProvidedPostgres = inject('kassaPostgres')
  ?? { url: null, reason: 'the PostgreSQL globalSetup did not run (test/helpers/postgres-setup.ts in vitest.config.ts)', template: '' };

/** Why the PostgreSQL tests are skipped in this run ('' when they run). */
export const skipReason: string = provided.url === null ? `PostgreSQL absent: ${provided.reason}` : '';

/**
 * True when this run has a throwaway PostgreSQL cluster. Use as `describe.skipIf(!postgresAvailable())(postgresSuite('…'), …)`
 * so a run without PostgreSQL reports those tests as skipped with the reason, never as passed.
 */
export function postgresAvailable(): boolean {
  return provided.url !== null;
}

/** A suite's name, with the skip reason appended when PostgreSQL is absent (the summary reporter prints skipped suites' names). */
export function postgresSuite(name: string): string {
  return postgresAvailable() ? name : `${name} (skipped: ${skipReason})`;
}

/**
 * Creates a fresh database `kassa_<random>` on the run's cluster and returns its URL (~0.1 s: cheap enough per
 * test file, or per test). Empty by default (`openPostgres(url)` migrates it, another ~0.3 s); with
 * `{ migrated: true }` a copy of the run's template, already at the newest version (openPostgres finds nothing to do).
 * Databases are left to the cluster's teardown, which removes the whole cluster; `dropTestDatabase` frees one earlier.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<string> {
  const base = baseUrl();
  const name = `kassa_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    // an identifier cannot be a parameter; `name` is made here of hex digits only, the template's name by the setup
    await admin.query(options.migrated ? `CREATE DATABASE ${name} TEMPLATE ${provided.template}` : `CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by `createTestDatabase`, closing whatever connections are still open to it. */
export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^kassa_[0-9a-f]+$/.test(name)) throw new Error(`not a test database: ${name}`);
  const admin = new pg.Client({ connectionString: baseUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** the cluster's base URL (its `postgres` database); throws where PostgreSQL is absent — guard with postgresAvailable() */
export function baseUrl(): string {
  if (provided.url === null) throw new Error(skipReason);
  return provided.url;
}
