import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Scope } from '../engine/domain/scopes';
import { openDatabase } from '../engine/store/db';
import { createKeyRepo } from '../engine/store/key-repo';
import { CONCERT } from './catalog';
import type { Timing } from './report';

/** What scenario 7 (bench/terminal-sale.ts) reads around its runs: keys, counts, CPU time, a terminal's hand, interleaved timings. */

interface Running { readonly url: string }

const CLOCK_TICKS_PER_SECOND = 100;

/** Creates keys in a (new) data dir before its engine starts; answers them with their ids. */
export function createKeys(dir: string, wanted: readonly { name: string; scopes: Scope[] }[]): { id: string; key: string }[] {
  mkdirSync(dir, { recursive: true });
  const db = openDatabase(dir);
  try {
    const repo = createKeyRepo(db);
    return wanted.map((w) => repo.create(w.name, w.scopes));
  } finally {
    db.close();
  }
}

export function countSince(dir: string, sql: string, ...params: (string | number)[]): number {
  const db = new Database(join(dir, 'kassa.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(sql).get(...params) as { n: number }).n;
  } finally {
    db.close();
  }
}

/** User + system CPU time of a process so far, ms (/proc/PID/stat fields 14 and 15). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

export interface Hand { mode: string; online: boolean; sellable: number }

export async function hand(server: Running, key: string): Promise<Hand> {
  const answer = await fetch(`${server.url}/api/v3/sync/holdings`, { headers: { 'x-svc-api-key': key } });
  if (!answer.ok) throw new Error(`GET /sync/holdings: ${answer.status} ${await answer.text()}`);
  const { data } = (await answer.json()) as { data: { mode: string; online: boolean; holdings: { occurrenceId: string; inventoryItemId: string; sellable: number }[] } };
  const row = data.holdings.find((h) => h.occurrenceId === CONCERT.occurrenceId && h.inventoryItemId === CONCERT.inventoryItemId);
  return { mode: data.mode, online: data.online, sellable: row?.sellable ?? 0 };
}

export async function waitForHand(server: Running, key: string, ready: (h: Hand) => boolean, what: string): Promise<Hand> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    const now = await hand(server, key);
    if (ready(now)) return now;
    if (performance.now() > deadline) throw new Error(`terminal: ${what} not within 60 s (${JSON.stringify(now)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const percentile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;

export interface Call { readonly what: string; readonly status: number; send(): Promise<Response> }

/**
 * One request at a time from this process, the calls taking turns (each round starts with the next one), so
 * that all of them meet the machine in the same state: `warmup` seconds unrecorded, then `seconds` recorded.
 */
export async function interleaved(calls: readonly Call[], warmup: number, seconds: number): Promise<Timing[]> {
  const times = calls.map(() => [] as number[]);
  const recordFrom = performance.now() + warmup * 1000;
  const end = recordFrom + seconds * 1000;
  for (let round = 0; performance.now() < end; round++) {
    for (let k = 0; k < calls.length; k++) {
      const i = (round + k) % calls.length;
      const call = calls[i];
      if (!call) continue;
      const started = performance.now();
      const answer = await call.send();
      await answer.arrayBuffer();
      const took = performance.now() - started;
      if (answer.status !== call.status) throw new Error(`${call.what}: ${answer.status}, expected ${call.status}`);
      if (started >= recordFrom) times[i]?.push(took);
    }
  }
  return calls.map((call, i) => {
    const sorted = (times[i] ?? []).sort((a, b) => a - b);
    return { what: call.what, count: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  });
}
