import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, chainVerifier, entryHash, GENESIS_HASH, nextRow, verifyChain, type JournalHead, type JournalRow } from '../../../engine/domain/journal';
import { sha256Hex } from '../../../engine/domain/sha256';

/** The journal's chain (contract §14), pure: canonical JSON, the hash, and verification naming the first bad seq. */

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A chain of `n` entries as the appender stores it, and its head. */
function chain(n: number, seed = 0): { rows: JournalRow[]; head: JournalHead } {
  const rows: JournalRow[] = [];
  let head: JournalHead = { seq: 0, hash: GENESIS_HASH };
  for (let i = 0; i < n; i++) {
    const row = nextRow(head, {
      at: new Date(1_700_000_000_000 + i * 1000).toISOString(),
      kind: i % 3 === 0 ? 'cancellation' : 'order',
      ref: `ord_${seed}_${i}`,
      ...(i % 4 !== 1 && { amount: { amount: 100 * i + seed, currency: 'EUR' } }),
      data: { shiftId: i % 2 ? 'shf_1' : null, orderId: `ord_${seed}_${i}`, payments: [{ method: 'cash', amount: { amount: i, currency: 'EUR' } }] },
    });
    rows.push(row);
    head = { seq: row.seq, hash: row.hash };
  }
  return { rows, head };
}

const reversedDeep = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(reversedDeep);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([key, member]) => [key, reversedDeep(member)]));
};

describe('sha256Hex', () => {
  it('is SHA-256 of the UTF-8 bytes (as node:crypto), at every length across the block boundaries', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (let length = 0; length < 200; length++) expect(sha256Hex('é'.repeat(length))).toBe(sha('é'.repeat(length)));
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => sha256Hex(text) === sha(text)));
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth, has no spaces, leaves out undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: 'x' }, u: undefined })).toBe('{"a":{"c":"x","d":[1,{"y":null,"z":true}]},"b":1}');
  });

  it('is JSON that parses back to the value, whatever the key order', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      const text = canonicalJson(value);
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      expect(canonicalJson(JSON.parse(text))).toBe(text);
      // the same members in the reverse order: the same text
      expect(canonicalJson(reversedDeep(value))).toBe(text);
    }));
  });

  it('refuses what is not JSON', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
    expect(() => canonicalJson({ a: () => 1 })).toThrow();
  });
});

describe('entryHash', () => {
  it('is sha256hex(prevHash + canonical entry without hash), amount left out when absent', () => {
    const entry = { seq: 1, at: '2026-01-01T00:00:00.000Z', kind: 'order', ref: 'ord_1', data: { shiftId: null }, prevHash: GENESIS_HASH };
    expect(entryHash(entry)).toBe(sha(`${GENESIS_HASH}{"at":"2026-01-01T00:00:00.000Z","data":{"shiftId":null},"kind":"order","prevHash":"${GENESIS_HASH}","ref":"ord_1","seq":1}`));
    const withAmount = { ...entry, amount: { currency: 'EUR', amount: 500 } };
    expect(entryHash(withAmount)).toBe(sha(`${GENESIS_HASH}{"amount":{"amount":500,"currency":"EUR"},"at":"2026-01-01T00:00:00.000Z","data":{"shiftId":null},"kind":"order","prevHash":"${GENESIS_HASH}","ref":"ord_1","seq":1}`));
  });

  it('is the same with any SHA-256 passed in (the engine passes node:crypto\'s)', () => {
    const { rows, head } = chain(5);
    expect(verifyChain(rows, head, sha)).toEqual({ ok: true, entries: 5, head: head.hash });
    const row = rows[2];
    if (!row) throw new Error('no row');
    expect(nextRow({ seq: 2, hash: row.prevHash }, { at: row.at, kind: row.kind, ref: row.ref, data: JSON.parse(row.data) as Record<string, unknown>, ...(row.amount !== null && { amount: JSON.parse(row.amount) as { amount: number; currency: string } }) }, sha)).toEqual(row);
  });

  it('is what the appender stores: seq and prevHash follow the head', () => {
    const { rows } = chain(3);
    expect(rows.map((row) => row.seq)).toEqual([1, 2, 3]);
    expect(rows[0]?.prevHash).toBe(GENESIS_HASH);
    expect(rows[1]?.prevHash).toBe(rows[0]?.hash);
    expect(rows[1]?.amount).toBeNull();
    expect(rows[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('verifyChain', () => {
  it('accepts an intact chain, empty or not, in one piece or in pages', () => {
    expect(verifyChain([], { seq: 0, hash: GENESIS_HASH })).toEqual({ ok: true, entries: 0, head: GENESIS_HASH });
    expect(verifyChain([], undefined)).toEqual({ ok: true, entries: 0, head: GENESIS_HASH });
    const { rows, head } = chain(10);
    expect(verifyChain(rows, head)).toEqual({ ok: true, entries: 10, head: head.hash });
    const verifier = chainVerifier();
    for (let i = 0; i < rows.length; i += 3) expect(verifier.feed(rows.slice(i, i + 3))).toBe(true);
    expect(verifier.finish(head)).toEqual({ ok: true, entries: 10, head: head.hash });
  });

  it('names each kind of tampering', () => {
    const { rows, head } = chain(6);
    const at = (i: number): JournalRow => rows[i] ?? (() => { throw new Error(`no row ${i}`); })();
    const replaced = (i: number, row: JournalRow) => rows.map((r, j) => (j === i ? row : r));
    expect(verifyChain(replaced(2, { ...at(2), data: at(2).data.replace('"cash"', '"card"') }), head)).toEqual({ ok: false, firstBadSeq: 3, reason: 'hash-mismatch' });
    expect(verifyChain(replaced(2, { ...at(2), amount: '{"amount":1,"currency":"EUR"}' }), head)).toEqual({ ok: false, firstBadSeq: 3, reason: 'hash-mismatch' });
    expect(verifyChain(replaced(1, { ...at(1), amount: '{"amount":0,"currency":"EUR"}' }), head)).toEqual({ ok: false, firstBadSeq: 2, reason: 'hash-mismatch' });
    expect(verifyChain(replaced(2, { ...at(2), data: 'not json' }), head)).toEqual({ ok: false, firstBadSeq: 3, reason: 'hash-mismatch' });
    expect(verifyChain(rows.filter((_, j) => j !== 3), head)).toEqual({ ok: false, firstBadSeq: 4, reason: 'missing' });
    expect(verifyChain(rows.slice(1), head)).toEqual({ ok: false, firstBadSeq: 1, reason: 'missing' });
    expect(verifyChain(rows.slice(0, 5), head)).toEqual({ ok: false, firstBadSeq: 6, reason: 'missing' });
    // two rows' seq swapped: the rows, in seq order, are 1 2 5 4 3 6
    const swapped = [at(0), at(1), { ...at(4), seq: 3 }, at(3), { ...at(2), seq: 5 }, at(5)];
    expect(verifyChain(swapped, head)).toEqual({ ok: false, firstBadSeq: 3, reason: 'chain-broken' });
    // a row recomputed by someone who knows the rule: its successor's prevHash no longer matches
    const forged = nextRow({ seq: 2, hash: at(1).hash }, { at: at(2).at, kind: 'order', ref: 'forged', data: {} });
    expect(verifyChain(replaced(2, forged), head)).toEqual({ ok: false, firstBadSeq: 4, reason: 'chain-broken' });
    expect(verifyChain(rows, { seq: 6, hash: GENESIS_HASH })).toEqual({ ok: false, firstBadSeq: 6, reason: 'head-mismatch' });
    expect(verifyChain(rows, { seq: 4, hash: at(3).hash })).toEqual({ ok: false, firstBadSeq: 5, reason: 'head-mismatch' });
  });

  it('finds any single changed, removed or swapped row and names it', () => {
    const columns = ['at', 'kind', 'ref', 'amount', 'data', 'prevHash', 'hash'] as const;
    const tamper = fc.oneof(
      fc.record({ op: fc.constant('change' as const), column: fc.constantFrom(...columns), text: fc.string({ minLength: 1, maxLength: 8 }) }),
      fc.record({ op: fc.constant('remove' as const) }),
      fc.record({ op: fc.constant('swap' as const), offset: fc.integer({ min: 1, max: 7 }) }),
    );
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.nat(), tamper, (n, pick, how) => {
      const { rows, head } = chain(n, pick);
      const i = pick % n;
      const row = rows[i];
      if (!row) throw new Error('no row');
      if (how.op === 'change') {
        const before = row[how.column];
        const after = how.column === 'amount' && before === null ? '{"amount":1,"currency":"EUR"}' : `${before ?? ''}${how.text}`;
        const verdict = verifyChain(rows.map((r, j) => (j === i ? { ...r, [how.column]: after } : r)), head);
        expect(verdict).toMatchObject({ ok: false, firstBadSeq: i + 1 });
      } else if (how.op === 'remove') {
        const verdict = verifyChain(rows.filter((_, j) => j !== i), head);
        expect(verdict).toEqual({ ok: false, firstBadSeq: i + 1, reason: 'missing' });
      } else {
        const k = Math.min(i + how.offset, n - 1);
        if (k === i) return;
        const other = rows[k];
        if (!other) throw new Error('no row');
        const swapped = rows.map((r, j) => (j === i ? { ...other, seq: row.seq } : j === k ? { ...row, seq: other.seq } : r));
        expect(verifyChain(swapped, head)).toMatchObject({ ok: false, firstBadSeq: i + 1 });
      }
    }), { numRuns: 500 });
  });
});
