import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { TestEngine } from '../helpers/engine';
import { allOrders, importedOrders, readonlyDb, syncStatus, waitForStatus, type Api, type Order, type SyncStatus } from './harness';

/**
 * What the journal sync tests share (contract §14): the terminal's journal read from its SQLite file, the hub's copy
 * read through GET /hub/journal, the check that both are the same chain, and a shift driven through the API.
 */

export interface Entry {
  seq: number;
  at: string;
  kind: string;
  ref: string;
  amount?: { amount: number; currency: string };
  data: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

export interface JournalStatus {
  waiting: number;
  confirmedSeq: number;
  accepted: boolean | null;
  refused: { code: string; message: string } | null;
}

export type StatusWithJournal = SyncStatus & { journal: JournalStatus };

const eur = (amount: number) => ({ amount, currency: 'EUR' });

/** The terminal's journal as its `journal` table holds it, each row as its wire entry. */
export function terminalJournal(dataDir: string): Entry[] {
  const rows = readonlyDb(dataDir, (db) =>
    db
      .prepare<[], { seq: number; at: string; kind: string; ref: string; amount: string | null; data: string; prevHash: string; hash: string }>(
        'SELECT seq, at, kind, ref, amount, data, prev_hash AS prevHash, hash FROM journal ORDER BY seq',
      )
      .all(),
  );
  return rows.map((row) => ({
    seq: row.seq,
    at: row.at,
    kind: row.kind,
    ref: row.ref,
    ...(row.amount !== null && { amount: JSON.parse(row.amount) as Entry['amount'] }),
    data: JSON.parse(row.data) as Record<string, unknown>,
    prevHash: row.prevHash,
    hash: row.hash,
  }));
}

/** The hub's copy of a terminal's journal, every page of GET /hub/journal (admin). */
export async function hubJournal(hub: TestEngine, terminal: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  let after = 0;
  for (;;) {
    const page = await hub.request<{ data: Entry[]; nextAfter?: number }>('GET', `/hub/journal?terminal=${encodeURIComponent(terminal)}&after=${after}&limit=1000`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    entries.push(...page.body.data);
    if (page.body.nextAfter === undefined) return entries;
    after = page.body.nextAfter;
  }
}

/** Canonical JSON as the contract words it (keys sorted at every depth, no spaces): the tests' own, not the engine's. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, member]) => `${JSON.stringify(key)}:${canonical(member)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Every hash of a chain recomputed here (node:crypto), each entry chained to the one before, seqs 1, 2, 3 … */
export function expectVerifiableChain(entries: readonly Entry[]): void {
  let previous = '0'.repeat(64);
  entries.forEach((entry, index) => {
    const { hash, ...content } = entry;
    expect(entry.seq, 'seq').toBe(index + 1);
    expect(entry.prevHash, `prevHash of ${entry.seq}`).toBe(previous);
    expect(createHash('sha256').update(entry.prevHash + canonical(content)).digest('hex'), `hash of ${entry.seq}`).toBe(hash);
    previous = hash;
  });
}

/** The hub holds exactly the terminal's journal: every entry once, in order, with the same hashes, and it verifies. */
export async function expectSameJournal(hub: TestEngine, terminal: string, dataDir: string): Promise<Entry[]> {
  const local = terminalJournal(dataDir);
  const copy = await hubJournal(hub, terminal);
  expect(copy.map((entry) => entry.seq)).toEqual(local.map((entry) => entry.seq));
  expect(copy).toEqual(local);
  expectVerifiableChain(copy);
  return copy;
}

export async function journalStatus(kiosk: Api): Promise<StatusWithJournal> {
  const status = await syncStatus(kiosk);
  expect(status).toHaveProperty('journal');
  return status as StatusWithJournal;
}

/** Waits until the outbox is empty and the hub confirmed every journal entry. */
export async function waitForJournalSynced(kiosk: Api, timeoutMs: number): Promise<StatusWithJournal> {
  const done = (status: SyncStatus): boolean => status.waiting === 0 && (status as StatusWithJournal).journal.waiting === 0;
  return (await waitForStatus(kiosk, done, timeoutMs, 'the outbox and the journal to drain')) as StatusWithJournal;
}

/** The only terminal whose journal the hub holds (the sync key's owner: its id, for a key made alone). */
export function onlyTerminal(hub: TestEngine): string {
  const ids = readonlyDb(hub.dataDir, (db) => db.prepare<[], { keyId: string }>('SELECT key_id AS keyId FROM terminal_journal_heads').all());
  expect(ids).toHaveLength(1);
  return ids[0]?.keyId ?? '';
}

export interface Shift {
  id: string;
  number: number;
  status: string;
  zNumber?: number;
}

async function ok<T>(answer: Promise<{ status: number; body: unknown }>, status: number, what: string): Promise<T> {
  const { status: got, body } = await answer;
  expect(got, `${what}: ${JSON.stringify(body)}`).toBe(status);
  return (body as { data: T }).data;
}

/** Opens a shift on the terminal with a float in EUR. */
export const openShift = (kiosk: Api, float = 10_000): Promise<Shift> =>
  ok<Shift>(kiosk.request('POST', '/shifts', { body: { openingFloat: eur(float), staff: 'Ada' } }), 201, 'POST /shifts');

export const payIn = (kiosk: Api, shiftId: string, amount: number): Promise<unknown> =>
  ok(kiosk.request('POST', `/shifts/${shiftId}/cash-movements`, { body: { kind: 'payIn', amount: eur(amount), reason: 'change' } }), 201, 'pay-in');

export const closeShift = (kiosk: Api, shiftId: string, counted: number): Promise<Shift> =>
  ok<Shift>(kiosk.request('POST', `/shifts/${shiftId}/close`, { body: { counted: eur(counted), note: 'counted twice' } }), 200, 'close');

export const report = (kiosk: Api, shiftId: string): Promise<Record<string, unknown>> =>
  ok<Record<string, unknown>>(kiosk.request('GET', `/shifts/${shiftId}/report`), 200, 'report');

export const cancel = (kiosk: Api, orderId: string): Promise<unknown> => ok(kiosk.request('POST', `/orders/${orderId}/cancel`, { body: {} }), 200, 'cancel');

/**
 * Every order sold here is at the hub exactly once (by reference), confirmed; one cancelled here is there cancelled,
 * or not at all when it was cancelled before it was ever sent (nothing to send then).
 */
export async function expectOrdersAtHub(hub: TestEngine, sold: readonly Order[], cancelled: readonly string[]): Promise<void> {
  const imported = importedOrders(await allOrders(hub));
  const references = imported.map((order) => order.payment.reference ?? '');
  expect(new Set(references).size, 'no order twice').toBe(references.length);
  const kept = sold.filter((order) => !cancelled.includes(order.id) || references.includes(order.id));
  expect([...references].sort()).toEqual(kept.map((order) => order.id).sort());
  for (const order of imported) {
    const reference = order.payment.reference ?? '';
    expect(order.status, reference).toBe(cancelled.includes(reference) ? 'cancelled' : 'confirmed');
    expect(order.total, reference).toEqual(sold.find((local) => local.id === reference)?.total);
  }
}
