import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { card, cash, eur } from '../helpers/orders';
import { cancelOrder, sell } from '../helpers/shifts-contract';
import { hashOf, journalRows, readJournal, tamper, verifyJournal, type JournalRow } from '../helpers/journal-contract';

/**
 * Contract §14: "an entry changed or removed there [table `journal` of kassa.sqlite] is found by `verify`, naming
 * its `seq` (for a removed entry, the missing `seq`)". The tests change the table behind the engine's back (the
 * SQLite file, or the PostgreSQL database on that project), ask verify, and put the row back: verify is ok again
 * with the head it had. Also the "reorder two".
 */

let engine: TestEngine;
let rows: JournalRow[] = [];
let head = '';

beforeAll(async () => {
  // orders and cancellations only: this file needs the journal, not shifts
  engine = await startTestEngine();
  const first = await sell(engine, cash());
  const second = await sell(engine, card());
  await sell(engine, cash());
  await cancelOrder(engine, second.id);
  await sell(engine, card());
  await cancelOrder(engine, first.id);
  await sell(engine, cash());
  rows = await journalRows(engine);
  head = rows.at(-1)?.hash ?? '';
});
afterAll(async () => {
  await engine.close();
});

const rowAt = (seq: number): JournalRow => {
  const row = rows.find((candidate) => Number(candidate.seq) === seq);
  if (row === undefined) throw new Error(`no row ${seq}`);
  return row;
};

/** puts a row back as it was (every column) */
async function restore(seq: number): Promise<void> {
  const row = rowAt(seq);
  await tamper(engine, 'DELETE FROM journal WHERE seq = ?', [seq]);
  await tamper(engine, 'INSERT INTO journal (seq, at, kind, ref, amount, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [row.seq, row.at, row.kind, row.ref, row.amount, row.data, row.prev_hash, row.hash]);
}

async function expectIntact(): Promise<void> {
  expect(await verifyJournal(engine)).toEqual({ ok: true, entries: rows.length, head });
}

describe('§14 verify finds an entry changed or removed in table journal, naming its seq', () => {
  it('untouched: ok, seven entries, the head is the last hash', async () => {
    expect(rows.map((row) => row.kind)).toEqual(['order', 'order', 'order', 'cancellation', 'order', 'cancellation', 'order']);
    await expectIntact();
  });

  it('an amount changed: { ok: false, firstBadSeq: that seq, reason: "hash-mismatch" }', async () => {
    await tamper(engine, 'UPDATE journal SET amount = ? WHERE seq = ?', [JSON.stringify(eur(1)), 2]);
    expect(await verifyJournal(engine)).toEqual({ ok: false, firstBadSeq: 2, reason: 'hash-mismatch' });
    await restore(2);
    await expectIntact();
  });

  it('data changed (the order id it records): hash-mismatch at that seq', async () => {
    const row = rowAt(5);
    expect(row.data).toContain(row.ref);
    await tamper(engine, 'UPDATE journal SET data = ? WHERE seq = ?', [row.data.replaceAll(row.ref, 'ord_forged'), 5]);
    expect(await verifyJournal(engine)).toEqual({ ok: false, firstBadSeq: 5, reason: 'hash-mismatch' });
    await restore(5);
    await expectIntact();
  });

  it('the time of an entry changed: hash-mismatch at that seq', async () => {
    await tamper(engine, 'UPDATE journal SET at = ? WHERE seq = ?', ['2020-01-01T00:00:00.000Z', 3]);
    expect(await verifyJournal(engine)).toEqual({ ok: false, firstBadSeq: 3, reason: 'hash-mismatch' });
    await restore(3);
    await expectIntact();
  });

  it('an entry changed and its own hash recomputed: the next entry no longer follows it (chain-broken at seq + 1)', async () => {
    const row = rowAt(4);
    const forged = { seq: 4, at: row.at, kind: row.kind, ref: row.ref, amount: eur(1), data: JSON.parse(row.data) as Record<string, unknown>, prevHash: row.prev_hash, hash: '' };
    forged.hash = hashOf(forged);
    await tamper(engine, 'UPDATE journal SET amount = ?, hash = ? WHERE seq = ?', [JSON.stringify(eur(1)), forged.hash, 4]);
    expect(await verifyJournal(engine)).toEqual({ ok: false, firstBadSeq: 5, reason: 'chain-broken' });
    await restore(4);
    await expectIntact();
  });

  it('an entry removed from the middle: { ok: false, firstBadSeq: the missing seq, reason: "missing" }', async () => {
    await tamper(engine, 'DELETE FROM journal WHERE seq = ?', [4]);
    expect(await verifyJournal(engine)).toEqual({ ok: false, firstBadSeq: 4, reason: 'missing' });
    await restore(4);
    await expectIntact();
  });

  it('the first entry removed: missing, seq 1', async () => {
    await tamper(engine, 'DELETE FROM journal WHERE seq = ?', [1]);
    expect(await verifyJournal(engine)).toEqual({ ok: false, firstBadSeq: 1, reason: 'missing' });
    await restore(1);
    await expectIntact();
  });

  it('the last entry removed: found too, naming its seq', async () => {
    await tamper(engine, 'DELETE FROM journal WHERE seq = ?', [7]);
    const answer = await verifyJournal(engine);
    expect(answer).toMatchObject({ ok: false, firstBadSeq: 7 });
    expect(['missing', 'head-mismatch']).toContain((answer as { reason?: string }).reason);
    await restore(7);
    await expectIntact();
  });

  it('two entries reordered (their contents swapped, seq kept): found at the first of them', async () => {
    const [a, b] = [rowAt(2), rowAt(3)];
    const swap = 'UPDATE journal SET at = ?, kind = ?, ref = ?, amount = ?, data = ?, prev_hash = ?, hash = ? WHERE seq = ?';
    await tamper(engine, swap, [b.at, b.kind, b.ref, b.amount, b.data, b.prev_hash, b.hash, 2]);
    await tamper(engine, swap, [a.at, a.kind, a.ref, a.amount, a.data, a.prev_hash, a.hash, 3]);
    const answer = await verifyJournal(engine);
    expect(answer).toMatchObject({ ok: false, firstBadSeq: 2 });
    expect(['hash-mismatch', 'chain-broken']).toContain((answer as { reason?: string }).reason);
    await restore(2);
    await restore(3);
    await expectIntact();
  });

  it('after every repair the API reads the journal as it was', async () => {
    const entries = await readJournal(engine);
    expect(entries.map((entry) => entry.hash)).toEqual(rows.map((row) => row.hash));
  });
});
