import { execFile, spawn } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../engine/store/postgres/connect';
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
  const cluster = await startCluster(bin);
  try {
    await migratedTemplate(cluster.url);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return { provided: { url: cluster.url, reason: '', template: TEMPLATE }, stop: cluster.stop };
}

const run = promisify(execFile);
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
const asRoot = userInfo().uid === 0;

/** runs one of the binaries, as `postgres` when we are root (the server refuses root) */
async function runPg(bin: string, tool: string, args: string[]): Promise<void> {
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  await run(command, argv, { timeout: 60_000 });
}

interface Cluster {
  url: string;
  /** stops the server and removes the cluster */
  stop: () => Promise<void>;
  /** stops the server (pg_ctl stop -m fast: sessions ended, as a restart does), keeping the cluster */
  halt: () => Promise<void>;
  /** starts the stopped server again, on the same port */
  resume: () => Promise<void>;
}

/**
 * A cluster of a test's own, apart from the run's shared one, for a test that stops and starts PostgreSQL
 * under running engines (test/pg/database-restart.test.ts); its `stop` removes it. The reason instead where
 * there are no binaries.
 */
export async function startOwnCluster(): Promise<Cluster | { reason: string }> {
  const bin = findBinaries();
  if (typeof bin !== 'string') return bin;
  return startCluster(bin);
}

async function startCluster(bin: string): Promise<Cluster> {
  const root = mkdtempSync(join(tmpdir(), 'kassa-pg-'));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(root, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = join(root, 'data');
  // --no-sync: only initdb's own final flush of the new files is skipped; the server runs with fsync on.
  await runPg(bin, 'initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    appendFileSync(data + '/postgresql.conf', [
      '', '# kassa test cluster (test/helpers/postgres-setup.ts)',
      "listen_addresses = '127.0.0.1'", `port = ${port}`, `unix_socket_directories = '${root}'`,
      'max_connections = 300', 'fsync = on', 'log_min_messages = warning', '',
    ].join('\n'));
    try {
      await runPg(bin, 'pg_ctl', ['start', '-w', '-t', '30', '-D', data, '-l', join(root, 'server.log')]);
    } catch (error) {
      lastError = error; // most likely the port was taken in between: the last `port` line wins on the next try
      continue;
    }
    return running(bin, root, data, port);
  }
  const log = existsSync(join(root, 'server.log')) ? readFileSync(join(root, 'server.log'), 'utf8') : '';
  rmSync(root, { recursive: true, force: true });
  throw new Error(`the test PostgreSQL did not start: ${String(lastError)}\n${log}`);
}

function running(bin: string, root: string, data: string, port: number): Cluster {
  // the postmaster of now (a halt and resume makes another): read from its pid file when it is signalled
  const postmaster = (): number => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  // a SIGKILLed run runs no exit handler: this watchdog outlives it, then stops the server and removes the folder
  const watchdog = spawn('sh', ['-c', 'while kill -0 "$1" 2>/dev/null; do sleep 2; done; kill -QUIT "$(head -n 1 "$2/postmaster.pid")" 2>/dev/null; sleep 2; rm -rf "$3"',
    'kassa-pg-watchdog', String(process.pid), data, root], { detached: true, stdio: 'ignore' });
  watchdog.unref();
  const onExit = (): void => {
    if (existsSync(join(data, 'postmaster.pid'))) killQuietly(postmaster(), 'SIGQUIT'); // immediate shutdown; the watchdog removes the folder once we are gone
  };
  process.once('exit', onExit);
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    process.off('exit', onExit);
    if (watchdog.pid !== undefined) killQuietly(watchdog.pid, 'SIGTERM');
    if (existsSync(join(data, 'postmaster.pid'))) {
      try {
        await runPg(bin, 'pg_ctl', ['stop', '-m', 'immediate', '-w', '-D', data]);
      } catch (error) {
        console.warn(`pg_ctl stop failed (${String(error)}); sending SIGQUIT to the postmaster`);
        killQuietly(postmaster(), 'SIGQUIT');
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
  const halt = () => runPg(bin, 'pg_ctl', ['stop', '-m', 'fast', '-w', '-t', '30', '-D', data]);
  const resume = () => runPg(bin, 'pg_ctl', ['start', '-w', '-t', '30', '-D', data, '-l', join(root, 'server.log')]);
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop, halt, resume };
}

/** signals `pid`, which may be gone already (that is fine: it is what we wanted) */
function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ESRCH')) throw error;
  }
}

/** a TCP port free on 127.0.0.1 right now (the caller retries if it is taken before the server binds it) */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port'))));
    });
  });
}
