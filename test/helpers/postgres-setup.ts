import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../engine/store/postgres/connect';
import { startCluster, type Cluster } from './pg-cluster';
import { findBinaries } from './postgres-binaries';
import type { ProvidedPostgres } from './postgres';

/**
 * vitest globalSetup (runs once, in vitest's main process): starts ONE throwaway PostgreSQL cluster for the whole
 * run and hands its base URL to the test files (workers) through `provide('kassaPostgres', …)`; test files read it
 * with test/helpers/postgres.ts. It also migrates one template database (kassa_template) that
 * `createTestDatabase({ migrated: true })` copies, sparing each test database the migrations. No binaries: the tests that need PostgreSQL skip with the reason. Binaries present
 * but the cluster fails to start: the run fails (a broken PostgreSQL must not look like an absent one).
 *
 * Binaries: `$KASSA_PG_BIN` (a folder holding initdb, pg_ctl, postgres; `none` switches PostgreSQL off), else the
 * newest `/usr/lib/postgresql/<major>/bin`. The server refuses root, so as root it runs as `postgres` (runuser).
 * The cluster: a temp folder, 127.0.0.1 on a free port, trust auth (initdb --auth=trust; it only listens on
 * loopback and its own socket folder), fsync on and synchronous_commit at its default (what a venue gets),
 * max_connections 300 (many engines, each with its pool). Teardown stops it (`pg_ctl stop -m immediate`) and
 * removes the folder; a run that dies without teardown still stops it: on process exit (SIGQUIT to the
 * postmaster), and, for a SIGKILLed run, a detached watchdog that waits for this process to end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // vitest runs this once per project (the root one too), each in its own module instance: the run's one
  // cluster is kept on globalThis, and the last project's teardown stops it
  const shared = globalThis as typeof globalThis & { kassaPostgresRun?: SharedRun };
  const run = shared.kassaPostgresRun ??= { users: 0, started: startOnce() };
  run.users += 1;
  const started = await run.started;
  project.provide('kassaPostgres', started.provided);
  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    shared.kassaPostgresRun = undefined;
    await started.stop();
  };
}

interface SharedRun { users: number; started: Promise<{ provided: ProvidedPostgres; stop: () => Promise<void> }> }

async function startOnce(): Promise<{ provided: ProvidedPostgres; stop: () => Promise<void> }> {
  const bin = findBinaries();
  if (typeof bin !== 'string') return { provided: { url: null, reason: bin.reason, template: '' }, stop: async () => undefined };
  const cluster = await startCluster(bin, { label: 'kassa test cluster (test/helpers/postgres-setup.ts)', settings: ['max_connections = 300'] });
  try {
    await migratedTemplate(cluster.url);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return { provided: { url: cluster.url, reason: '', template: TEMPLATE }, stop: cluster.stop };
}

/** a database migrated once per run, which createTestDatabase({ migrated: true }) copies; nobody else connects to it */
const TEMPLATE = 'kassa_template';

async function migratedTemplate(baseUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${TEMPLATE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${TEMPLATE}`;
  const pool = await openPostgres(url.toString());
  await pool.end();
}
/**
 * A cluster of a test's own, apart from the run's shared one, for a test that stops and starts PostgreSQL
 * under running engines (test/pg/database-restart.test.ts); its `stop` removes it. The reason instead where
 * there are no binaries.
 */
export async function startOwnCluster(): Promise<Cluster | { reason: string }> {
  const bin = findBinaries();
  if (typeof bin !== 'string') return bin;
  return startCluster(bin, { label: 'kassa test cluster of its own (test/helpers/postgres-setup.ts)', settings: ['max_connections = 300'] });
}
