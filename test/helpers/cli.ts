import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach } from 'vitest';

/**
 * The command line as real processes, for test/cli*.test.ts: `keys` as `npx tsx engine/cli/keys.ts`, `serve`
 * exactly as a user starts it (`npm run serve -- …`), each in its own process group, which the cleanup kills if a
 * test left it running. A test file calls `useCliCleanup()` once at its top level.
 */

export const ROOT = resolve(import.meta.dirname, '../..');
export const SLOW = 60_000;

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export const running = new Set<ChildProcess>();
export const tempDirs: string[] = [];

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-cli-'));
  tempDirs.push(dir);
  return dir;
}

export function collect(child: ChildProcess) {
  const out = { stdout: '', stderr: '' };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out.stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (out.stderr += chunk));
  const exited = new Promise<Finished>((done) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      done({ code, signal, ...out });
    });
  });
  return { out, exited };
}

/** `npx tsx <script> <args>` to completion */
export function npxTsx(script: string, args: string[], env: Readonly<Record<string, string>> = {}): Promise<Finished> {
  const child = spawn('npx', ['tsx', script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  return collect(child).exited;
}

export const keys = (...args: string[]) => npxTsx('engine/cli/keys.ts', args);
/** `keys` with variables added to its environment (KASSA_DATABASE) */
export const keysWithEnv = (env: Readonly<Record<string, string>>, ...args: string[]) => npxTsx('engine/cli/keys.ts', args, env);

export interface Server {
  child: ChildProcess;
  url: string;
  port: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<Finished>;
}

/**
 * starts `serve` and resolves once it printed both readiness lines; rejects with its output if it exits first.
 * `script` 'serve:dev' runs it from source (tsx), without rebuilding the bundle that `npm run serve` rewrites at
 * each start — for files that may run beside another that starts `npm run serve`.
 */
export async function serve(args: string[], env: Readonly<Record<string, string>> = {}, script: 'serve' | 'serve:dev' = 'serve'): Promise<Server> {
  const child = spawn('npm', ['run', '-s', script, '--', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  const { out, exited } = collect(child);
  const ready = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/m;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const match = ready.exec(out.stdout);
    if (match && /^ui: /m.test(out.stdout)) {
      return { child, url: match[1] ?? '', port: Number(match[2]), stdout: () => out.stdout, stderr: () => out.stderr, exited };
    }
    const early = await Promise.race([exited, new Promise<undefined>((done) => setTimeout(() => done(undefined), 50))]);
    if (early) throw new Error(`serve exited (${early.code}) before it was ready:\n${early.stdout}\n${early.stderr}`);
    if (Date.now() > deadline) throw new Error(`serve not ready in 30 s:\n${out.stdout}\n${out.stderr}`);
  }
}

/** Waits until a `serve` started by hand says `listening on` (30 s at most; its output in the error otherwise). */
export async function untilListening(child: ChildProcess, out: { readonly stdout: string; readonly stderr: string }): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!/^listening on /m.test(out.stdout)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve not ready:\n${out.stdout}\n${out.stderr}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** true while any process of the group `pid` leads is alive */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits up to 3 s for every process of the group to exit (tsx's esbuild helper follows the engine out). */
export async function groupGone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 3000; waited += 50) {
    if (!groupAlive(pid)) return true;
    await new Promise((done) => setTimeout(done, 50));
  }
  return !groupAlive(pid);
}

export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

export async function api<T = unknown>(server: Server, method: string, path: string, key: string | undefined, body?: unknown): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (key !== undefined) headers['x-svc-api-key'] = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.url}/api/v3${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';
export const STACK_FRAME = /^\s+at .+[:(]/m;

/** Registers the file's hooks: after each test its processes' groups are killed; after all, its temp folders go. */
export function useCliCleanup(): void {
  afterEach(async () => {
    const left = [...running];
    for (const child of left) killGroup(child);
    await Promise.all(left.map((child) => new Promise((done) => (child.exitCode !== null || child.signalCode !== null ? done(undefined) : child.once('close', done)))));
  });

  afterAll(() => {
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });
}
