import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { expect } from 'vitest';
import type { Money } from './cart-assertions';
import { readRows } from './db-rows';
import type { ApiResponse, TestEngine } from './engine';

/**
 * The journal of contract §14 as an auditor reads it: entries over the API, rows in the `journal` table, and
 * the hash recomputed here from the contract's words alone — "the lowercase hex SHA-256 of `prevHash` followed
 * by the canonical JSON (keys sorted, no spaces) of the entry without `hash` (the first `prevHash` is 64
 * zeros)" — with a canonicalizer of our own, never the engine's.
 */

export interface JournalEntry {
  seq: number;
  at: string;
  kind: string;
  ref: string;
  amount?: Money;
  data: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

export interface JournalPage {
  data: JournalEntry[];
  nextAfter?: number;
}

export type VerifyAnswer = { ok: true; entries: number; head: string } | { ok: false; firstBadSeq: number; reason: string };

/** The first entry's prevHash. */
export const ZERO_HASH = '0'.repeat(64);

/** JSON with the keys of every object sorted and no whitespace; undefined members left out. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item: unknown) => (item === undefined ? 'null' : canonical(item))).join(',')}]`;
  const members = Object.entries(value)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, member]) => `${JSON.stringify(key)}:${canonical(member)}`);
  return `{${members.join(',')}}`;
}

/** sha256hex(prevHash + canonical(entry without hash)) */
export function hashOf(entry: JournalEntry): string {
  const rest: Partial<JournalEntry> = { ...entry };
  delete rest.hash;
  return createHash('sha256').update(entry.prevHash + canonical(rest), 'utf8').digest('hex');
}

/** GET /journal with a query string, raw. */
export function journalPage(engine: TestEngine, query = '', key?: string): Promise<ApiResponse<JournalPage>> {
  return engine.request<JournalPage>('GET', `/journal${query}`, key === undefined ? {} : { key });
}

/** The whole journal over the API, in pages of `limit` followed through nextAfter. */
export async function readJournal(engine: TestEngine, limit = 1000): Promise<JournalEntry[]> {
  const entries: JournalEntry[] = [];
  let after = 0;
  for (let page = 0; page < 10_000; page++) {
    const response = await journalPage(engine, `?after=${after}&limit=${limit}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    entries.push(...response.body.data);
    const next = response.body.nextAfter;
    if (next === undefined) return entries;
    expect(next).toBeGreaterThan(after);
    after = next;
  }
  throw new Error('GET /journal never ends');
}

/** Seq 1, 2, 3 … without gaps, each prevHash the hash before it (64 zeros first), each hash recomputed here. */
export function expectChain(entries: readonly JournalEntry[]): void {
  let prev = ZERO_HASH;
  entries.forEach((entry, i) => {
    const text = JSON.stringify(entry);
    expect(entry.seq, text).toBe(i + 1);
    expect(entry.prevHash, text).toBe(prev);
    expect(entry.hash, text).toMatch(/^[0-9a-f]{64}$/);
    expect(entry.hash, `hash of ${text}`).toBe(hashOf(entry));
    prev = entry.hash;
  });
}

/** GET /journal/verify, expecting 200, under `data`. */
export async function verifyJournal(engine: TestEngine): Promise<VerifyAnswer> {
  const response = await engine.request<{ data: VerifyAnswer }>('GET', '/journal/verify');
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

/** The new entries since `after` (a seq), over the API. */
export async function entriesAfter(engine: TestEngine, after: number): Promise<JournalEntry[]> {
  return (await readJournal(engine)).filter((entry) => entry.seq > after);
}

/** The last seq of the journal (0 when empty). */
export async function lastSeq(engine: TestEngine): Promise<number> {
  const entries = await readJournal(engine);
  return entries.at(-1)?.seq ?? 0;
}

/** A row of the `journal` table exactly as contract §14 names its columns. */
export interface JournalRow {
  seq: number;
  at: string;
  kind: string;
  ref: string;
  amount: string | null;
  data: string;
  prev_hash: string;
  hash: string;
}

/** Every row of the `journal` table, in seq order, read from the engine's database. */
export function journalRows(engine: Pick<TestEngine, 'dataDir' | 'database'>): Promise<JournalRow[]> {
  return readRows<JournalRow>(engine, 'SELECT seq, at, kind, ref, amount, data, prev_hash, hash FROM journal ORDER BY seq');
}

/** The entry an auditor rebuilds from a row (amount and data parsed from their JSON text). */
export function entryOfRow(row: JournalRow): JournalEntry {
  const amount: unknown = row.amount === null ? undefined : JSON.parse(row.amount);
  const data: unknown = JSON.parse(row.data);
  return {
    seq: Number(row.seq),
    at: row.at,
    kind: row.kind,
    ref: row.ref,
    ...(amount !== undefined && { amount: amount as Money }),
    data: data as Record<string, unknown>,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/**
 * Writes to the engine's database behind its back, as someone with the file (or the database) would: for the
 * tampering tests only. `?` placeholders, numbered for PostgreSQL.
 */
export async function tamper(engine: Pick<TestEngine, 'dataDir' | 'database'>, sql: string, params: readonly unknown[] = []): Promise<void> {
  if (engine.database === undefined) {
    const db = new Database(join(engine.dataDir, 'kassa.sqlite'), { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare(sql).run(...params);
    } finally {
      db.close();
    }
    return;
  }
  let n = 0;
  const numbered = sql.replace(/\?/g, () => `$${++n}`);
  const client = new pg.Client({ connectionString: engine.database });
  await client.connect();
  try {
    await client.query(numbered, [...params]);
  } finally {
    await client.end();
  }
}
