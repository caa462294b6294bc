import { execFile, spawn } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findBinaries } from './postgres-binaries';

/**
 * A throwaway PostgreSQL cluster from the machine's binaries, in a temp folder: what the test run
 * (test/helpers/postgres-setup.ts) and the bench's hub scenario (bench/pg-hub.ts) both start.
 *
 * Binaries: `$KASSA_PG_BIN` (a folder holding initdb, pg_ctl, postgres; `none` switches PostgreSQL off), else the
 * newest `/usr/lib/postgresql/<major>/bin`. The server refuses root, so as root it runs as `postgres` (runuser).
 * The cluster: 127.0.0.1 on a free port, its socket in its own folder, trust auth (initdb --auth=trust; it only
 * listens on loopback and its own socket folder), fsync on, everything else at the server's defaults unless the
 * caller sets it. `stop` ends it (`pg_ctl stop -m immediate`) and removes the folder; a process that dies without
 * calling it still stops it: on process exit (SIGQUIT to the postmaster), and, when SIGKILLed, through a detached
 * watchdog that waits for this process to end.
 */

const run = promisify(execFile);
const asRoot = userInfo().uid === 0;

/** A running cluster. */
export interface Cluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  /** the postmaster's process id now (its children are the server's other processes: backends, checkpointer, WAL writer, …) */
  readonly postmaster: number;
  /** stops the server and removes its folder; safe to call twice */
  readonly stop: () => Promise<void>;
  /** stops the server (pg_ctl stop -m fast: sessions ended, as a restart does), keeping the cluster */
  readonly halt: () => Promise<void>;
  /** starts the stopped server again, on the same port */
  readonly resume: () => Promise<void>;
}

/** What a caller may set beyond the defaults. */
export interface ClusterOptions {
  /** a comment line naming who started it, written into postgresql.conf */
  readonly label: string;
  /** extra postgresql.conf lines (e.g. `max_connections = 300`) */
  readonly settings?: readonly string[];
}

/** The newest PostgreSQL bin folder that has initdb, or why there is none (test/helpers/postgres-binaries.ts). */
export const findPostgresBinaries = findBinaries;

/** runs one of the binaries, as `postgres` when we are root (the server refuses root) */
async function runPg(bin: string, tool: string, args: string[]): Promise<void> {
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  await run(command, argv, { timeout: 60_000 });
}

/** Initialises a cluster in a new temp folder and starts it; throws (with the server's log) if it does not start. */
export async function startCluster(bin: string, options: ClusterOptions): Promise<Cluster> {
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
      '', `# ${options.label}`,
      "listen_addresses = '127.0.0.1'", `port = ${port}`, `unix_socket_directories = '${root}'`,
      'fsync = on', 'log_min_messages = warning', ...(options.settings ?? []), '',
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
  throw new Error(`PostgreSQL did not start: ${String(lastError)}\n${log}`);
}

function running(bin: string, root: string, data: string, port: number): Cluster {
  // the postmaster of now (a halt and resume makes another): read from its pid file when it is signalled
  const postmaster = (): number => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  // a SIGKILLed process runs no exit handler: this watchdog outlives it, then stops the server and removes the folder
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
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    get postmaster() {
      return postmaster();
    },
    stop,
    halt,
    resume,
  };
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
