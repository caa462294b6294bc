import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../engine/store/db';
import { createKeyRepo } from '../engine/store/key-repo';

/**
 * Issue #22: a checkout under way when `npm run serve` is told to stop gets its answer. The signal goes to the
 * whole process group — what a terminal's Ctrl-C and a service manager do — so npm and the engine both get it,
 * and npm forwards its copy to the engine: the engine hears it twice within milliseconds. That pair is one
 * request to stop, not the "second signal" that exits at once (which cut the checkout's answer off: status 0).
 * At the shipped defaults but the simulated provider's latency (--psp-answer-delay-ms).
 */

const ROOT = resolve(import.meta.dirname, '..');
const ITEM = { occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 2 };

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

interface Serve {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}

async function serve(dataDir: string, args: string[] = []): Promise<Serve> {
  const child = spawn('npm', ['run', '-s', 'serve', '--', '--data', dataDir, '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  cleanup.push(() => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is gone
    }
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; at: number }>((done) => child.on('exit', (code) => done({ code, at: Date.now() })));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const match = /^listening on (http:\/\/\S+)$/m.exec(output);
    if (match?.[1]) return { child, url: match[1], output: () => output, exited };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`serve not ready:\n${output}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

function call(agent: Agent, url: string, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const req = httpRequest({ agent, hostname, port, method, path: `/api/v3${path}`, headers: { 'x-svc-api-key': key, 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: text, at: Date.now() }));
    });
    // a connection cut before the answer: what a browser reports as status 0
    req.on('error', () => done({ status: 0, headers: {}, body: '', at: Date.now() }));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

function pendingPayments(dataDir: string): number {
  const db = new Database(join(dataDir, 'kassa.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM payment_attempts WHERE state = 'pending'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe.each(['SIGTERM', 'SIGINT'] as const)('npm run serve, its process group sent %s during a checkout', (signal) => {
  it('the checkout gets its 201, an idle keep-alive connection closes at once, the process exits within 5 s of the answer, the order is there after a restart', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kassa-serve-stop-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const keyDb = openDatabase(dataDir);
    const key = createKeyRepo(keyDb).create('till', ['admin']).key;
    keyDb.close();

    const server = await serve(dataDir, ['--psp-answer-delay-ms', '2000']);
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    // an idle keep-alive connection (a second till's, or the UI's poll): answered, and left open by its client
    const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    cleanup.push(() => agent.destroy(), () => idleAgent.destroy());
    const idle = await call(idleAgent, server.url, key, 'GET', '/health');
    expect(idle.headers.connection).toBe('keep-alive');
    const idleSocket = Object.values(idleAgent.freeSockets).flat()[0];
    if (!idleSocket) throw new Error('no idle keep-alive socket');
    const idleClosed = new Promise<number>((done) => idleSocket.once('close', () => done(Date.now())));

    const cart = await call(agent, server.url, key, 'POST', '/carts', { items: [ITEM] });
    expect(cart.status, cart.body).toBe(201);
    const { data } = JSON.parse(cart.body) as { data: { id: string; total: unknown } };
    const checkout = call(agent, server.url, key, 'POST', '/orders', { cartId: data.id, expectedTotal: data.total, payment: { method: 'card', token: 'tok_visa' } }, { 'idempotency-key': crypto.randomUUID() });
    for (let waited = 0; pendingPayments(dataDir) === 0; waited += 20) {
      if (waited > 10_000) throw new Error('no payment under way');
      await new Promise((done) => setTimeout(done, 20));
    }

    const signalled = Date.now();
    process.kill(-(server.child.pid ?? 0), signal);
    const answered = await checkout;
    expect(answered.status, `${answered.body}\n${server.output()}`).toBe(201);
    expect(answered.headers.connection).toBe('close');
    const order = (JSON.parse(answered.body) as { data: { id: string; status: string; payment: { status: string } } }).data;
    expect(order).toMatchObject({ status: 'confirmed', payment: { status: 'captured' } });
    // the idle connection did not wait for the checkout
    expect((await idleClosed) - signalled).toBeLessThan(1_000);
    const exited = await server.exited;
    expect(exited.code).toBe(0);
    expect(exited.at - answered.at).toBeLessThan(5_000);
    expect(server.output()).not.toContain('second signal');

    // started again: the order the client was told of is there, paid once, nothing left for recovery
    const again = await serve(dataDir);
    const read = await call(new Agent(), again.url, key, 'GET', `/orders/${order.id}`);
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body)).toMatchObject({ data: { id: order.id, status: 'confirmed', payment: { status: 'captured' } } });
    expect(again.output()).not.toContain('left open by a crash');
    process.kill(-(again.child.pid ?? 0), 'SIGTERM');
    expect((await again.exited).code).toBe(0);
  });
});
