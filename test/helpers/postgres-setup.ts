import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../engine/store/postgres/connect';
import { findPostgresBinaries, startCluster } from './pg-cluster';
import type { ProvidedPostgres } from './postgres';

/**
 * vitest globalSetup (runs once, in vitest's main process): starts ONE throwaway PostgreSQL cluster for the whole
 * run and hands its base URL to the test files (workers) through `provide('kassaPostgres', …)`; test files read it
 * with test/helpers/postgres.ts. It also migrates one template database (kassa_template) that
 * `createTestDatabase({ migrated: true })` copies, sparing each test database the migrations. No binaries: the tests that need PostgreSQL skip with the reason. Binaries present
 * but the cluster fails to start: the run fails (a broken PostgreSQL must not look like an absent one).
 *
 * The cluster is test/helpers/pg-cluster.ts's (binaries, temp folder, loopback, trust auth, fsync on and
 * synchronous_commit at its default — what a venue gets — and its clean-up when the run dies), with
 * max_connections 300 (many engines, each with its pool). Teardown stops it and removes the folder.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const bin = findPostgresBinaries();
  if (typeof bin !== 'string') {
    project.provide('kassaPostgres', { url: null, reason: bin.reason, template: '' } satisfies ProvidedPostgres);
    return async () => undefined;
  }
  const cluster = await startCluster(bin, { label: 'kassa test cluster (test/helpers/postgres-setup.ts)', settings: ['max_connections = 300'] });
  try {
    await migratedTemplate(cluster.url);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  project.provide('kassaPostgres', { url: cluster.url, reason: '', template: TEMPLATE } satisfies ProvidedPostgres);
  return cluster.stop;
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
