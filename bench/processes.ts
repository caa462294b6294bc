import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from './report';

/**
 * The processes `npm run bench` (bench/run.ts) starts — servers, the load generator, the bundle build — and what
 * it reads about them and about the machine from /proc. Every process started here is tracked, so that a failing
 * run leaves none behind (`killAll`).
 */

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Server { readonly proc: ChildProcess; readonly pid: number; readonly url: string; readonly readyMs: number; readonly rssMb: number }

const children = new Set<ChildProcess>();
function track(proc: ChildProcess): ChildProcess {
  children.add(proc);
  proc.on('exit', () => children.delete(proc));
  return proc;
}

/** Kills (SIGKILL) every process the bench started that is still running. */
export function killAll(): void {
  for (const proc of children) proc.kill('SIGKILL');
}

/** Spawns a server and waits for its `listening on URL` line; readyMs is spawn → that line. */
export function startServer(name: string, args: readonly string[]): Promise<Server> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const proc = track(spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }));
    const log: string[] = [];
    let stdout = '';
    const fail = (why: string) => reject(new Error(`${name}: ${why}\n${log.join('').slice(-3000)}`));
    proc.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
    proc.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1] && proc.pid !== undefined) {
        const readyMs = performance.now() - started;
        resolve({ proc, pid: proc.pid, url: match[1], readyMs, rssMb: rssMb(proc.pid, 'VmRSS') });
      }
    });
    proc.on('exit', (code) => fail(`exited (${code}) before listening`));
    proc.on('error', (error) => fail(error.message));
  });
}

/** Stops a server (SIGTERM, SIGKILL after 15 s) and waits for it to exit. */
export function stopServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (server.proc.exitCode !== null) return resolve();
    const kill = setTimeout(() => server.proc.kill('SIGKILL'), 15_000);
    server.proc.removeAllListeners('exit');
    children.delete(server.proc);
    server.proc.on('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    server.proc.kill('SIGTERM');
  });
}

/** A memory figure of a process from /proc/PID/status (VmRSS now, VmHWM its peak), MB; NaN once it is gone. */
export function rssMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Bytes the process has had read from the disk (not from the page cache) so far: /proc/PID/io read_bytes. */
export function diskReadBytes(pid: number): number {
  try {
    return Number(/^read_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** The machine's CPU time so far (all CPUs, in clock ticks) and the part of it stolen by the hypervisor. */
export function cpuTimes(): { total: number; steal: number } {
  try {
    const fields = (/^cpu\s+(.*)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? '').trim().split(/\s+/).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user)
    return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), steal: fields[7] ?? Number.NaN };
  } catch {
    return { total: Number.NaN, steal: Number.NaN };
  }
}

/** The hypervisor's share of the machine's CPU time since `before`, %. */
export function stealSince(before: { total: number; steal: number }): number {
  const now = cpuTimes();
  return (100 * (now.steal - before.steal)) / (now.total - before.total);
}

/**
 * Runs bench/load.mjs (a process of its own) with `defaults` (the bench's warm-up, duration and connections)
 * unless `plan` sets them; answers its JSON.
 */
export function loadGenerator(defaults: Record<string, unknown>, plan: Record<string, unknown>, spawned: (pid: number) => void = () => undefined): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const proc = track(spawn(process.execPath, [join(ROOT, 'bench', 'load.mjs'), JSON.stringify({ ...defaults, ...plan })], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }));
    if (proc.pid !== undefined) spawned(proc.pid);
    let out = '';
    let err = '';
    proc.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited ${code}: ${err.slice(-3000)}`));
      try {
        resolve(JSON.parse(out) as LoadResult);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

/** Runs the load generator against `server` and samples the server's RSS (and the machine's CPU steal) meanwhile. */
export async function loadWithRss(defaults: Record<string, unknown>, server: Server, plan: Record<string, unknown>): Promise<{ result: LoadResult; peakRssMb: number; stealPct: number }> {
  const before = cpuTimes();
  let peak = rssMb(server.pid, 'VmRSS');
  const sampler = setInterval(() => {
    const now = rssMb(server.pid, 'VmRSS');
    if (now > peak) peak = now;
  }, 100);
  try {
    const result = await loadGenerator(defaults, { url: server.url, ...plan });
    return { result, peakRssMb: peak, stealPct: stealSince(before) };
  } finally {
    clearInterval(sampler);
  }
}

/** `node engine/cli/bundle.mjs`, as `npm run serve` does before it starts the engine. */
export function buildBundle(): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = track(spawn(process.execPath, [join(ROOT, 'engine', 'cli', 'bundle.mjs')], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] }));
    proc.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bundle.mjs exited ${code}`))));
  });
}
