import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { canonical, type Entry } from '../sync/journal-helpers';

/**
 * A terminal's journal at its hub (contract §14): POST /hub/journal stores a terminal's entries exactly once by
 * (terminal, seq), each hash checked against its content and each entry against the chain held; GET /hub/journal
 * reads the hub's copy; GET /shifts?terminal= lists the shifts the journals tell. Runs on both databases (the
 * `postgres` project runs test/api again on PostgreSQL). The entries are made here with this file's own SHA-256 and
 * canonical JSON (node:crypto), not the engine's.
 */


const GENESIS = '0'.repeat(64);

const hashOf = (entry: Omit<Entry, 'hash'>): string => createHash('sha256').update(entry.prevHash + canonical(entry)).digest('hex');

/** The entry after `before` (or the first), hashed. */
function next(before: Entry | undefined, kind: string, ref: string, data: Record<string, unknown>, amount?: Entry['amount']): Entry {
  const seq = (before?.seq ?? 0) + 1;
  const unhashed = { seq, at: new Date(Date.UTC(2027, 5, 1, 18, 0, seq)).toISOString(), kind, ref, ...(amount && { amount }), data, prevHash: before?.hash ?? GENESIS };
  return { ...unhashed, hash: hashOf(unhashed) };
}

const eur = (amount: number) => ({ amount, currency: 'EUR' });

/** A terminal's day: a shift opened, two sales, a pay-in, the shift closed with its Z report. */
function day(): Entry[] {
  const entries: Entry[] = [];
  const add = (kind: string, ref: string, data: Record<string, unknown>, amount?: Entry['amount']) => entries.push(next(entries.at(-1), kind, ref, data, amount));
  add('shiftOpened', 'shf_1', { shiftId: 'shf_1', number: 1, staff: 'Ada' }, eur(10_000));
  add('order', 'ord_1', { shiftId: 'shf_1', orderId: 'ord_1', currency: 'EUR', total: eur(3500), baseTotal: eur(3500), payments: [{ method: 'cash', amount: eur(3500) }], events: [] }, eur(3500));
  add('order', 'ord_2', { shiftId: 'shf_1', orderId: 'ord_2', currency: 'EUR', total: eur(7000), baseTotal: eur(7000), payments: [{ method: 'card', amount: eur(7000) }], events: [] }, eur(7000));
  add('payIn', 'cmv_1', { shiftId: 'shf_1', reason: 'change' }, eur(500));
  const report = { kind: 'Z', shift: { id: 'shf_1', number: 1 }, cash: { expected: eur(14_000) } };
  add('shiftClosed', 'shf_1', { shiftId: 'shf_1', zNumber: 1, expected: eur(14_000), counted: eur(13_900), difference: eur(-100), note: 'one coin short', report }, eur(13_900));
  return entries;
}

let hub: TestEngine;
let terminal: string;
let rotated: string;
let other: string;
let noImport: string;
const entries = day();

beforeAll(async () => {
  hub = await startTestEngine({ demo: false });
  terminal = await hub.createKey(['orders:import'], { owner: 'till-7' });
  // `keys replace` keeps the owner: the terminal's new key continues its chain
  rotated = await hub.createKey(['orders:import'], { owner: 'till-7' });
  other = await hub.createKey(['orders:import'], { owner: 'till-8' });
  noImport = await hub.createKey(['orders:write'], { owner: 'till-9' });
});
afterAll(async () => {
  await hub.close();
});

const post = (key: string, body: unknown) => hub.request<{ data: { lastSeq: number; head: string; stored: number } } & ErrorEnvelope>('POST', '/hub/journal', { key, body });
const held = async (terminalId: string) => (await hub.request<{ data: Entry[] }>('GET', `/hub/journal?terminal=${terminalId}&limit=1000`)).body.data;

describe('POST /api/v3/hub/journal', () => {
  it('stores a terminal\'s entries, answers the last seq held, and a repeat stores nothing again', async () => {
    const first = await post(terminal, { entries: entries.slice(0, 3) });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toEqual({ lastSeq: 3, head: entries[2]?.hash, stored: 3 });

    // the answer was lost: the same request again, then an overlapping one from the rotated key
    expect((await post(terminal, { entries: entries.slice(0, 3) })).body.data).toEqual({ lastSeq: 3, head: entries[2]?.hash, stored: 0 });
    const overlap = await post(rotated, { entries: entries.slice(1) });
    expect(overlap.body.data).toEqual({ lastSeq: 5, head: entries[4]?.hash, stored: 2 });

    // the hub's copy is the terminal's, entry for entry (same hashes)
    expect(await held('till-7')).toEqual(entries);
  });

  it('refuses a gap with 409 JOURNAL_GAP naming where to send from', async () => {
    const later = next(next(entries.at(-1), 'payOut', 'cmv_2', { shiftId: null, reason: 'x' }, eur(1)), 'payOut', 'cmv_3', { shiftId: null, reason: 'y' }, eur(1));
    const answer = await post(terminal, { entries: [later] });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({ type: 'CONFLICT_ERROR', code: 'JOURNAL_GAP', details: { lastSeq: 5, expectedSeq: 6 } });
    expect(answer.body.error.message).toContain('seq 6');
  });

  it('refuses a changed entry, a broken chain and another entry at a held seq with 409 JOURNAL_CHAIN_BROKEN', async () => {
    const sixth = next(entries.at(-1), 'payOut', 'cmv_2', { shiftId: null, reason: 'tip jar' }, eur(200));
    const changed = { ...sixth, amount: eur(20) };
    const unhashed = { seq: sixth.seq, at: sixth.at, kind: sixth.kind, ref: sixth.ref, amount: sixth.amount, data: sixth.data, prevHash: 'f'.repeat(64) };
    const unchained = { ...unhashed, hash: hashOf(unhashed) };
    const otherSecond = next(entries[0], 'order', 'ord_x', { shiftId: 'shf_1', orderId: 'ord_x' }, eur(1));
    const cases: [Entry[], number, string][] = [
      [[changed], 6, 'hash-mismatch'],
      [[unchained], 6, 'chain-broken'],
      [[otherSecond], 2, 'differs'],
    ];
    for (const [sent, seq, reason] of cases) {
      const answer = await post(terminal, { entries: sent });
      expect(answer.status, reason).toBe(409);
      expect(answer.body.error, reason).toMatchObject({ type: 'CONFLICT_ERROR', code: 'JOURNAL_CHAIN_BROKEN', details: { seq, reason } });
    }
    // nothing of it was stored; the right entry still goes
    expect(await held('till-7')).toHaveLength(5);
    expect((await post(terminal, { entries: [sixth] })).body.data).toMatchObject({ lastSeq: 6, stored: 1 });
  });

  it('keeps each terminal\'s chain apart, and refuses what is not a request', async () => {
    const answer = await post(other, { entries: entries.slice(0, 2) });
    expect(answer.body.data).toMatchObject({ lastSeq: 2, stored: 2 });
    expect(await held('till-8')).toHaveLength(2);

    const skipping = await post(other, { entries: [entries[2], entries[4]] });
    expect(skipping.status).toBe(400);
    expect(skipping.body.error).toMatchObject({ code: 'INVALID_FIELD_VALUE', param: 'entries[1].seq' });
    expect((await post(other, { entries: [] })).status).toBe(400);
    expect((await post(other, { entries: [{ ...entries[2], hash: 'nothex' }] })).status).toBe(400);
    const forbidden = await post(noImport, { entries: entries.slice(0, 1) });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
  });
});

describe('GET /api/v3/shifts?terminal=', () => {
  interface Listed {
    id: string;
    number: number;
    status: string;
    terminal?: string;
    zNumber?: number;
    expected?: unknown;
    counted?: unknown;
    difference?: unknown;
    note?: string;
    report?: unknown;
  }

  it("lists a terminal's shifts from its journal, closed ones with their Z report; `all` lists every terminal's", async () => {
    const listed = await hub.request<{ data: Listed[] }>('GET', '/shifts?terminal=till-7');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data).toEqual([
      {
        id: 'shf_1',
        number: 1,
        status: 'closed',
        openedAt: entries[0]?.at,
        openingFloat: eur(10_000),
        staff: 'Ada',
        closedAt: entries[4]?.at,
        zNumber: 1,
        expected: eur(14_000),
        counted: eur(13_900),
        difference: eur(-100),
        note: 'one coin short',
        terminal: 'till-7',
        report: entries[4]?.data.report,
      },
    ]);
    // till-8 holds only the opening so far: its shift is open
    const everyone = (await hub.request<{ data: Listed[] }>('GET', '/shifts?terminal=all')).body.data;
    expect(everyone.map((shift) => [shift.terminal, shift.status]).sort()).toEqual([['till-7', 'closed'], ['till-8', 'open']]);
    expect(everyone.find((shift) => shift.terminal === 'till-8')).not.toHaveProperty('report');
    expect((await hub.request<{ data: Listed[] }>('GET', '/shifts?terminal=nobody')).body.data).toEqual([]);
    // pages
    const first = await hub.request<{ data: Listed[]; nextCursor?: string }>('GET', '/shifts?terminal=all&limit=1');
    expect(first.body.data).toHaveLength(1);
    expect(first.body.nextCursor).toBeDefined();
    const second = await hub.request<{ data: Listed[]; nextCursor?: string }>('GET', `/shifts?terminal=all&limit=1&cursor=${first.body.nextCursor ?? ''}`);
    expect(second.body.data).toHaveLength(1);
    expect(second.body.nextCursor).toBeUndefined();
    expect(second.body.data[0]?.terminal).not.toBe(first.body.data[0]?.terminal);
    expect((await hub.request('GET', '/shifts?terminal=all&cursor=bogus')).status).toBe(400);
  });

  it("reads this engine's own shifts without `terminal`, and the hub's copy only with admin", async () => {
    expect((await hub.request<{ data: Listed[] }>('GET', '/shifts')).body.data).toEqual([]);
    expect((await hub.request('GET', '/hub/journal?terminal=till-7', { key: terminal })).status).toBe(403);
  });
});
