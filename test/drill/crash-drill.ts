import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../engine/store/db';
import { createKeyRepo } from '../../engine/store/key-repo';
import { startTestEngine } from '../helpers/engine';
import { checkInvariants, type Seen } from './invariants';

/**
 * The crash drill (issue #12): a terminal engine (`serve`, a real process) syncing to an upstream engine
 * takes a mixed load — checkouts by card and cash, 3-D Secure, cancellations, carts let go — and is killed
 * with SIGKILL at random points. After each restart the SQL invariants are checked on its database:
 *
 * charge = order, one refund per cancelled payment, stock = carts + orders, no seat twice, the sync outbox,
 * `integrity_check`, and every 201 and 200 a client saw (test/drill/invariants.ts).
 *
 * `npm run drill` runs 100 kills; `npm test` runs 5 (test/drill/crash-drill.test.ts).
 */

export interface DrillOptions {
  readonly kills: number;
  /** concurrent clients */
  readonly clients?: number;
  /** a kill lands between these many ms after the load (re)starts */
  readonly killAfterMs?: readonly [number, number];
  readonly log?: (line: string) => void;
  /** seeded randomness for reproducible runs */
  readonly seed?: number;
}

export interface DrillReport {
  readonly kills: number;
  readonly ordersSeen: number;
  readonly cancelsSeen: number;
  readonly violations: readonly string[];
}

const SYNC_SCOPES = ['catalog:read', 'carts:write', 'orders:write', 'orders:import'];

export async function runCrashDrill(options: DrillOptions): Promise<DrillReport> {
  const log = options.log ?? (() => undefined);
  const random = mulberry32(options.seed ?? Date.now());
  const [minKill, maxKill] = options.killAfterMs ?? [300, 2500];
  const dataDir = mkdtempSync(join(tmpdir(), 'kassa-drill-'));
  const upstream = await startTestEngine({ rateLimit: 0 });
  const syncKey = await upstream.createKey(SYNC_SCOPES);
  const keyDb = openDatabase(dataDir);
  const key = createKeyRepo(keyDb).create('till', ['admin']).key;
  keyDb.close();

  const seen = { orders: new Set<string>(), cancelled: new Set<string>() };
  const violations: string[] = [];
  let kills = 0;
  try {
    for (let round = 0; round <= options.kills; round += 1) {
      const proc = await startTerminal(dataDir, upstream.url, syncKey);
      const found = checkInvariants(dataDir, seen);
      for (const violation of found) violations.push(`after ${round} kill(s): ${violation}`);
      if (found.length > 0 || round === options.kills) {
        await stop(proc.child, 'SIGTERM');
        break;
      }
      await warmUp(proc.url, key);
      const load = startLoad(proc.url, key, options.clients ?? 4, random, seen);
      await sleep(minKill + Math.floor(random() * (maxKill - minKill)));
      await stop(proc.child, 'SIGKILL');
      kills += 1;
      await load.stop();
      log(`kill ${kills}: ${seen.orders.size} orders, ${seen.cancelled.size} cancellations seen so far`);
    }
  } finally {
    await upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { kills, ordersSeen: seen.orders.size, cancelsSeen: seen.cancelled.size, violations };
}

// --- the terminal process ----------------------------------------------------------------------------

async function startTerminal(dataDir: string, upstreamUrl: string, syncKey: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'engine/cli/serve.ts', '--port', '0', '--data', dataDir, '--rate-limit', '0',
    '--hold-seconds', '5', '--upstream', upstreamUrl, '--sync-retry-ms', '50', '--sync-pull-seconds', '3600', '--log-level', 'warn'], {
    cwd: new URL('../../', import.meta.url),
    stdio: ['ignore', 'pipe', 'pipe'],
    // the sync key from the environment, never argv
    env: { ...process.env, KASSA_UPSTREAM_KEY: syncKey },
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    // generous: on a shared two-core machine under a full test run a start can take half a minute
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // never left running
      reject(new Error(`terminal did not start in 120 s: ${output}`));
    }, 120_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`terminal exited with ${code}: ${output}`));
    });
  });
  return { child, url };
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

/** A fresh process compiles its validators on first use: one cart first, so kills land in the load, not in that. */
async function warmUp(url: string, key: string): Promise<void> {
  const headers = { 'x-svc-api-key': key, 'content-type': 'application/json' };
  const cart = await fetch(`${url}/api/v3/carts`, { method: 'POST', headers, body: JSON.stringify({ items: [{ occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId: 'gift-25', quantity: 1 }] }) });
  const { data } = (await cart.json()) as { data: { id: string } };
  await fetch(`${url}/api/v3/carts/${data.id}`, { method: 'DELETE', headers: { 'x-svc-api-key': key } });
}

// --- the load ----------------------------------------------------------------------------------------

const CONCERT = ['brass-2027-03-12', 'brass-2027-03-13'];
const THEATRE = ['tempest-2027-04-02', 'tempest-2027-04-09'];
const ROWS = ['A', 'B', 'C', 'D'];

function startLoad(url: string, key: string, clients: number, random: () => number, seen: Seen) {
  let running = true;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'x-svc-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> & { data?: Record<string, unknown>; error?: { details?: Record<string, unknown> } } };
  };
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

  const items = () => {
    const kind = random();
    if (kind < 0.4) return [{ occurrenceId: pick(CONCERT), inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 + Math.floor(random() * 3) }];
    if (kind < 0.8) {
      const row = pick(ROWS);
      const seat = 1 + Math.floor(random() * 10);
      return [{ occurrenceId: pick(THEATRE), inventoryItemId: `${row}${seat}`, priceOptionId: 'stalls-full', quantity: 1 }];
    }
    return [{ occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId: 'gift-25', quantity: 1 }];
  };

  const checkout = async (cartId: string, total: unknown, payment: Record<string, unknown>) => {
    const answer = await call('POST', '/api/v3/orders', { cartId, expectedTotal: total, payment }, { 'idempotency-key': crypto.randomUUID() });
    const id = answer.body.data?.id;
    if (answer.status === 201 && typeof id === 'string') seen.orders.add(id);
    return answer;
  };

  const step = async () => {
    const roll = random();
    if (roll < 0.2 && seen.orders.size > 0) {
      const orderId = pick([...seen.orders]);
      const answer = await call('POST', `/api/v3/orders/${orderId}/cancel`);
      if (answer.status === 200) seen.cancelled.add(orderId);
      return;
    }
    const cart = await call('POST', '/api/v3/carts', { items: items() });
    if (cart.status !== 201 || !cart.body.data) return;
    const { id, total } = cart.body.data as { id: string; total: unknown };
    const how = random();
    if (how < 0.35) await checkout(id, total, { method: 'card', token: 'tok_visa' });
    else if (how < 0.65) await checkout(id, total, { method: 'cash' });
    else if (how < 0.85) {
      const first = await checkout(id, total, { method: 'card', token: 'tok_3ds' });
      const action = first.body.error?.details?.action;
      if (typeof action !== 'string') return;
      const { reference } = JSON.parse(action) as { reference: string };
      const decided = await fetch(`${url}/psp/challenges/${reference}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"outcome":"approve"}' });
      const { authenticationResult } = (await decided.json()) as { authenticationResult: string };
      await checkout(id, total, { method: 'card', token: 'tok_3ds', authenticationResult });
    } else if (how < 0.95) await call('DELETE', `/api/v3/carts/${id}`);
    // else: the cart is left to time out
  };

  const worker = async () => {
    while (running) {
      try {
        await step();
      } catch {
        if (running) await sleep(20); // the engine is down (killed): the client sees a network error and waits
      }
    }
  };
  const workers = Array.from({ length: clients }, worker);
  return {
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
