import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { journalEntries, verifyJournal } from '../helpers/journal';
import { card, cash, eur, placeOrder } from '../helpers/orders';

/**
 * Tampering with the journal in the database itself, the engine stopped (contract §14: "an entry changed or removed
 * there is found by verify, naming its seq"): the SQLite file through better-sqlite3 (on PostgreSQL the same SQL
 * through pg). Between cases the table is put back as the engine left it, and verification passes again.
 */

interface Row { seq: number; at: string; kind: string; ref: string; amount: string | null; data: string; prev_hash: string; hash: string }

let engine: TestEngine;
let original: Row[] = [];
let head: { seq: number; hash: string } | undefined;

/** Runs statements on the stopped engine's database, in one transaction. */
async function write(statements: readonly (readonly [string, readonly unknown[]])[]): Promise<void> {
  if (engine.database === undefined) {
    const db = new Database(join(engine.dataDir, 'kassa.sqlite'), { fileMustExist: true });
    try {
      db.transaction(() => {
        for (const [sql, params] of statements) db.prepare(sql).run(...params);
      })();
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: engine.database });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const [sql, params] of statements) {
      let n = 0;
      await client.query(sql.replace(/\?/g, () => `$${++n}`), [...params]);
    }
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

/**
 * Starts the engine again. The first request may meet a keep-alive connection of the stopped server in fetch's pool
 * ("other side closed"): it is made until one reaches the new server.
 */
async function restart(): Promise<void> {
  await engine.start();
  for (let attempt = 1; ; attempt++) {
    try {
      await engine.request('GET', '/health');
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** Stops the engine, runs `statements`, starts it again and answers its verdict; then puts the journal back. */
async function verdictAfter(...statements: (readonly [string, readonly unknown[]])[]) {
  await engine.stop();
  await write(statements);
  await restart();
  const verdict = await verifyJournal(engine);
  await engine.stop();
  await write([
    ['DELETE FROM journal', []],
    ...original.map((row) => ['INSERT INTO journal (seq, at, kind, ref, amount, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [row.seq, row.at, row.kind, row.ref, row.amount, row.data, row.prev_hash, row.hash]] as const),
    ['UPDATE journal_head SET seq = ?, hash = ? WHERE id = 1', [head?.seq, head?.hash]],
  ]);
  await restart();
  expect(await verifyJournal(engine)).toMatchObject({ ok: true, entries: original.length });
  return verdict;
}

beforeAll(async () => {
  engine = await startTestEngine();
  const orders = [];
  for (let i = 0; i < 5; i++) {
    const cart = await createCart(engine, [concert(1 + (i % 2))]);
    orders.push(await placeOrder(engine, cart.id, cart.total, i % 2 ? card() : cash()));
  }
  expect((await engine.request('POST', `/orders/${orders[1]?.id ?? ''}/cancel`)).status).toBe(200);
  // the rows as stored, read through the API's entries (the same columns) to put them back between cases
  original = (await journalEntries(engine)).map((entry) => ({
    seq: entry.seq, at: entry.at, kind: entry.kind, ref: entry.ref, amount: entry.amount === undefined ? null : JSON.stringify(entry.amount),
    data: '', prev_hash: entry.prevHash, hash: entry.hash,
  }));
  expect(original).toHaveLength(6);
  // the data column exactly as stored (the API parses it)
  await engine.stop();
  const stored = await readStored();
  original = original.map((row) => ({ ...row, data: stored.get(row.seq)?.data ?? '', amount: stored.get(row.seq)?.amount ?? null }));
  head = { seq: 6, hash: original[5]?.hash ?? '' };
  await restart();
});
afterAll(() => engine.close());

async function readStored(): Promise<Map<number, { data: string; amount: string | null }>> {
  const sql = 'SELECT seq, data, amount FROM journal ORDER BY seq';
  if (engine.database === undefined) {
    const db = new Database(join(engine.dataDir, 'kassa.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return new Map(db.prepare<[], { seq: number; data: string; amount: string | null }>(sql).all().map((row) => [row.seq, row]));
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: engine.database });
  await client.connect();
  try {
    const { rows } = await client.query<{ seq: string; data: string; amount: string | null }>(sql);
    return new Map(rows.map((row) => [Number(row.seq), { data: row.data, amount: row.amount }]));
  } finally {
    await client.end();
  }
}

describe('verification after tampering with the database', () => {
  it('an intact journal verifies', async () => {
    expect(await verifyJournal(engine)).toEqual({ ok: true, entries: 6, head: head?.hash });
  });

  it("an entry's data changed: hash-mismatch at its seq", async () => {
    expect(await verdictAfter(['UPDATE journal SET data = replace(data, \'"cash"\', \'"card"\') WHERE seq = 3', []]))
      .toEqual({ ok: false, firstBadSeq: 3, reason: 'hash-mismatch' });
  });

  it('an amount changed: hash-mismatch at its seq', async () => {
    expect(await verdictAfter(['UPDATE journal SET amount = ? WHERE seq = 2', [JSON.stringify(eur(100))]]))
      .toEqual({ ok: false, firstBadSeq: 2, reason: 'hash-mismatch' });
  });

  // JSON.parse keeps a duplicate key's last value, SQLite's json_extract (an auditor's query, and the engine's own
  // index of a shift's entries) its first: a forged first value must not pass as the honest row
  it("a forged duplicate key put in front of an entry's data: hash-mismatch at its seq", async () => {
    expect(await verdictAfter(['UPDATE journal SET data = \'{"total":{"amount":1,"currency":"EUR"},\' || substr(data, 2) WHERE seq = 3', []]))
      .toEqual({ ok: false, firstBadSeq: 3, reason: 'hash-mismatch' });
  });

  it('a forged duplicate key put in front of an amount: hash-mismatch at its seq', async () => {
    expect(await verdictAfter(['UPDATE journal SET amount = \'{"amount":1,\' || substr(amount, 2) WHERE seq = 2', []]))
      .toEqual({ ok: false, firstBadSeq: 2, reason: 'hash-mismatch' });
  });

  it('a middle entry deleted: missing, naming its seq', async () => {
    expect(await verdictAfter(['DELETE FROM journal WHERE seq = 4', []])).toEqual({ ok: false, firstBadSeq: 4, reason: 'missing' });
  });

  it('the last entry deleted: missing, found through the head', async () => {
    expect(await verdictAfter(['DELETE FROM journal WHERE seq = 6', []])).toEqual({ ok: false, firstBadSeq: 6, reason: 'missing' });
  });

  it('the first entry deleted: missing 1', async () => {
    expect(await verdictAfter(['DELETE FROM journal WHERE seq = 1', []])).toEqual({ ok: false, firstBadSeq: 1, reason: 'missing' });
  });

  it('two entries reordered by swapping their seq: chain-broken at the first', async () => {
    expect(await verdictAfter(
      ['UPDATE journal SET seq = -2 WHERE seq = 2', []],
      ['UPDATE journal SET seq = 2 WHERE seq = 5', []],
      ['UPDATE journal SET seq = 5 WHERE seq = -2', []],
    )).toEqual({ ok: false, firstBadSeq: 2, reason: 'chain-broken' });
  });

  it('the head moved back: head-mismatch', async () => {
    expect(await verdictAfter(['UPDATE journal_head SET seq = 5, hash = ? WHERE id = 1', [original[4]?.hash]]))
      .toEqual({ ok: false, firstBadSeq: 6, reason: 'head-mismatch' });
  });
});
