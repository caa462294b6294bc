import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';

/**
 * The real haproxy (Debian's `haproxy` package) for tests of the hub recipe (deploy/hub/haproxy.cfg): found, started
 * in the foreground on a config file plus a test-only one that adds a runtime API socket, read through that socket
 * (`show stat`), stopped by its pid. Never faked: where haproxy is absent the tests that need it are skipped.
 */

/** the haproxy binary: on PATH, or in /usr/sbin (Debian's place, not on every user's PATH) */
export function haproxyBinary(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/sbin', '/usr/local/sbin'];
  return dirs.map((dir) => join(dir, 'haproxy')).find((file) => existsSync(file));
}

/** Why haproxy cannot run the recipe's config here (skip the test with this in its name), or undefined. */
export function haproxySkipReason(): string | undefined {
  if (haproxyBinary() === undefined) return 'no haproxy here: apt-get install haproxy (.ci/run does)';
  if (process.getuid?.() !== 0) return "haproxy on the recipe's config needs root: it binds port 80, then becomes user haproxy";
  return undefined;
}

const canListen = (port: number, host: string): Promise<number | undefined> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : undefined));
    });
  });

/** A TCP port free on 127.0.0.1 at the moment of asking (for a process that takes its port on its command line). */
export async function freePort(): Promise<number> {
  const port = await canListen(0, '127.0.0.1');
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}

/**
 * A loopback address other than 127.0.0.1 (Linux answers the whole 127/8 on `lo`) whose `port` is free, so that
 * a proxy can take port 80 as the recipe's does without colliding with anything else on the machine.
 */
export async function freeLoopbackAddress(port: number): Promise<string> {
  for (let tries = 0; tries < 20; tries++) {
    const address = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
    if ((await canListen(port, address)) !== undefined) return address;
  }
  throw new Error(`no loopback address with port ${port} free`);
}

/** One server line of `show stat`: its name, UP/DOWN/…, and the requests it was sent in all (`stot`). */
export interface ServerStat {
  readonly name: string;
  readonly status: string;
  readonly sent: number;
}

export interface Haproxy {
  readonly child: ChildProcess;
  readonly output: () => string;
  /** the servers of `backend`, from the runtime API */
  servers(backend: string): Promise<ServerStat[]>;
  /** SIGTERM to its pid; resolves when it has exited */
  stop(): Promise<void>;
}

/** One command on haproxy's runtime API socket; its whole answer. */
async function runtimeApi(socket: string, command: string): Promise<string> {
  const connection = connect(socket);
  let answer = '';
  connection.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  await once(connection, 'connect');
  connection.end(`${command}\n`);
  await once(connection, 'close');
  return answer;
}

function parseStat(csv: string, backend: string): ServerStat[] {
  const [header = '', ...lines] = csv.trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const at = (name: string): number => columns.indexOf(name);
  return lines
    .map((line) => line.split(','))
    .filter((row) => row[at('pxname')] === backend && !['FRONTEND', 'BACKEND'].includes(row[at('svname')] ?? ''))
    .map((row) => ({ name: row[at('svname')] ?? '', status: row[at('status')] ?? '', sent: Number(row[at('stot')]) }));
}

/**
 * Starts haproxy in the foreground (`-db`, whatever `daemon` the config says) on `config`, written into `dir`
 * with a second file that adds a runtime API socket there; resolves once that socket answers.
 */
export async function startHaproxy(config: string, dir: string): Promise<Haproxy> {
  const binary = haproxyBinary();
  if (binary === undefined) throw new Error('no haproxy');
  const main = join(dir, 'haproxy.cfg');
  const extra = join(dir, 'runtime-api.cfg');
  const socket = join(dir, 'haproxy.sock');
  writeFileSync(main, config);
  writeFileSync(extra, `global\n    stats socket ${socket} mode 600 level admin\n`);
  const child = spawn(binary, ['-db', '-f', main, '-f', extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const proxy: Haproxy = {
    child,
    output: () => output,
    servers: async (backend) => parseStat(await runtimeApi(socket, 'show stat'), backend),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
  for (const deadline = Date.now() + 10_000; ; ) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${output}`);
    const answered = existsSync(socket) && (await proxy.servers('').then(() => true, () => false));
    if (answered) return proxy;
    if (Date.now() > deadline) {
      await proxy.stop();
      throw new Error(`haproxy not ready in 10 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Replaces the one occurrence of `from` in `text`; throws when there is none or more than one (the file drifted). */
export function replaceOnce(text: string, from: string, to: string): string {
  const count = text.split(from).length - 1;
  if (count !== 1) throw new Error(`expected "${from}" once, found it ${count} times`);
  return text.replace(from, () => to);
}
