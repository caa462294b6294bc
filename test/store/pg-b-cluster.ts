import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL cluster for test/store/pg-repos-b.test.ts until the shared harness of task "pgschema"
 * (test/helpers/postgres.ts) is merged: initdb as the `postgres` user in a temporary folder, listening on
 * 127.0.0.1 and a free port, its socket in that folder. Stopped by its pid and removed by `stop()`.
 */

const BIN = '/usr/lib/postgresql/15/bin';

export const postgresAvailable = existsSync(join(BIN, 'initdb'));

export interface TestCluster {
  readonly url: string;
  /** a pool on a fresh database of the cluster (int8 parsed to numbers, as the engine's pool does) */
  database(name: string): Promise<pg.Pool>;
  stop(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;
const run = (command: string, args: string[]) =>
  execFileSync(asRoot ? 'runuser' : command, asRoot ? ['-u', 'postgres', '--', command, ...args] : args, { stdio: 'pipe' });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startCluster(): Promise<TestCluster> {
  pg.types.setTypeParser(20, Number);
  const dir = mkdtempSync(join(tmpdir(), 'kassa-pg-b-'));
  chmodSync(dir, 0o777);
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const data = join(dir, 'data');
  run(join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--locale=C.UTF-8', '-E', 'UTF8']);
  const port = await freePort();
  const server: ChildProcess = spawn(asRoot ? 'runuser' : join(BIN, 'postgres'),
    [...(asRoot ? ['-u', 'postgres', '--', join(BIN, 'postgres')] : []), '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
      '-c', 'fsync=off', '-c', 'max_connections=50'], { stdio: 'ignore' });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  for (let tries = 0; ; tries++) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (tries > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const pools: pg.Pool[] = [];
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  return {
    url,
    async database(name) {
      await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/${name}`, max: 8 });
      pools.push(pool);
      return pool;
    },
    async stop() {
      await Promise.all(pools.map((pool) => pool.end()));
      await admin.end();
      const exited = new Promise((resolve) => server.once('exit', resolve));
      run(join(BIN, 'pg_ctl'), ['stop', '-D', data, '-m', 'immediate']);
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
