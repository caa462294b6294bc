import type { Money } from './money';
import { sha256Hex } from './sha256';

/**
 * The journal's chain (contract §14), pure: an entry's canonical form, its hash, and the check of a whole chain.
 *
 *   hash = sha256hex(prevHash + canonicalJson(entry without `hash`))
 *
 * where the entry is `{ seq, at, kind, ref, amount?, data, prevHash }` (`amount` left out when there is none) and
 * the first entry's prevHash is 64 zeros. Rows are checked as stored (`amount` and `data` are JSON text), so an
 * auditor recomputes every hash from the table alone.
 */

/**
 * A SHA-256 of a text's UTF-8 bytes as lowercase hex. The pure one (domain/sha256.ts) by default; the engine passes
 * node:crypto's (engine/journal/hash.ts), the same function several times faster.
 */
export type Sha256Hex = (text: string) => string;

/** The prevHash of the first entry (and the head of an empty journal). */
export const GENESIS_HASH = '0'.repeat(64);

/** An entry's `data`: a JSON object (canonicalJson refuses what is not JSON). */
export type JsonObject = Readonly<Record<string, unknown>>;

/** An entry on the wire (contract §14). */
export interface JournalEntry {
  readonly seq: number;
  readonly at: string;
  readonly kind: string;
  readonly ref: string;
  readonly amount?: Money;
  readonly data: JsonObject;
  readonly prevHash: string;
  readonly hash: string;
}

/** A row of table `journal` as stored: `amount` (Money) and `data` are JSON text. */
export interface JournalRow {
  readonly seq: number;
  readonly at: string;
  readonly kind: string;
  readonly ref: string;
  readonly amount: string | null;
  readonly data: string;
  readonly prevHash: string;
  readonly hash: string;
}

/** The one row of table `journal_head`: the last entry's seq and hash (0 and GENESIS_HASH when empty). */
export interface JournalHead {
  readonly seq: number;
  readonly hash: string;
}

export type ChainFault = 'hash-mismatch' | 'chain-broken' | 'missing' | 'head-mismatch';

/** What verification answers (GET /api/v3/journal/verify). */
export type ChainVerdict =
  | { readonly ok: true; readonly entries: number; readonly head: string }
  | { readonly ok: false; readonly firstBadSeq: number; readonly reason: ChainFault };

/**
 * JSON with the keys of every object sorted (by UTF-16 code units, JavaScript's default order; the journal's keys
 * are ASCII, where that is byte order) and no spaces. An object's `undefined` members are left out, as
 * JSON.stringify does; a number that is not finite, or anything that is not JSON, throws.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonicalJson: a number that is not finite');
      return JSON.stringify(value);
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((item: unknown) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
      const members = Object.entries(value as Record<string, unknown>)
        .filter(([, member]) => member !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`);
      return `{${members.join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
  }
}

/** What is hashed of an entry: all of it but `hash` (`amount` and `data` as any JSON, so a stored row is hashed as it is). */
export interface UnhashedEntry {
  readonly seq: number;
  readonly at: string;
  readonly kind: string;
  readonly ref: string;
  readonly amount?: unknown;
  readonly data: unknown;
  readonly prevHash: string;
}

/** The hash of an entry: sha256hex(prevHash + canonicalJson(entry without `hash`)), `amount` left out when undefined. */
export function entryHash(entry: UnhashedEntry, sha256: Sha256Hex = sha256Hex): string {
  const { seq, at, kind, ref, amount, data, prevHash } = entry;
  return sha256(prevHash + canonicalJson({ seq, at, kind, ref, amount, data, prevHash }));
}

/**
 * A stored row as its wire entry; undefined when its `amount` is not a Money's JSON or its `data` not an object's
 * (a row that was tampered with: verification reports it as hash-mismatch).
 */
export function entryOfRow(row: JournalRow): JournalEntry | undefined {
  const data = parseJson(row.data);
  if (data === undefined || data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  let amount: Money | undefined;
  if (row.amount !== null) {
    const parsed = parseJson(row.amount);
    if (!isMoney(parsed)) return undefined;
    amount = { amount: parsed.amount, currency: parsed.currency };
  }
  return { seq: row.seq, at: row.at, kind: row.kind, ref: row.ref, ...(amount !== undefined && { amount }), data: data as JsonObject, prevHash: row.prevHash, hash: row.hash };
}

/**
 * The hash recomputed from a stored row as it is (its JSON columns parsed); undefined when one is not JSON, or not
 * in the canonical form every entry is stored in (nextRow): text that parses to the hashed value but reads
 * otherwise — a duplicate key, whose first value SQLite's json_extract answers and JSON.parse drops — is a change.
 */
export function rowHash(row: JournalRow, sha256: Sha256Hex = sha256Hex): string | undefined {
  const data = canonicalParse(row.data);
  const amount = row.amount === null ? undefined : canonicalParse(row.amount);
  if (data === undefined || (row.amount !== null && amount === undefined)) return undefined;
  return entryHash({ seq: row.seq, at: row.at, kind: row.kind, ref: row.ref, amount, data, prevHash: row.prevHash }, sha256);
}

/** A chain checked a page at a time (in seq order), then against the head: `verifyChain` in pieces. */
export interface ChainVerifier {
  /** checks the next rows; false once a fault was found (the rest need not be read) */
  feed(rows: readonly JournalRow[]): boolean;
  /** the verdict, once every row was fed: the last row must be the head's */
  finish(head: JournalHead | undefined): ChainVerdict;
}

/**
 * A verifier for the rows of a journal in seq order. Each row, in turn: its seq must be the next (else `missing`,
 * naming the seq that is not there), its prevHash the previous row's hash (else `chain-broken`: a row moved or
 * replaced), its hash the one recomputed from it (else `hash-mismatch`: a column changed). Then the last row must
 * be the head (a head further on: `missing`, the removed tail's first seq; anything else: `head-mismatch`).
 */
export function chainVerifier(sha256: Sha256Hex = sha256Hex): ChainVerifier {
  let expected = 1;
  let previous = GENESIS_HASH;
  let fault: ChainVerdict | undefined;
  const bad = (firstBadSeq: number, reason: ChainFault): false => {
    fault = { ok: false, firstBadSeq, reason };
    return false;
  };
  return {
    feed(rows) {
      if (fault) return false;
      for (const row of rows) {
        if (row.seq !== expected) return bad(row.seq > expected ? expected : row.seq, row.seq > expected ? 'missing' : 'chain-broken');
        if (row.prevHash !== previous) return bad(row.seq, 'chain-broken');
        if (rowHash(row, sha256) !== row.hash) return bad(row.seq, 'hash-mismatch');
        previous = row.hash;
        expected += 1;
      }
      return true;
    },
    finish(head) {
      if (fault) return fault;
      const last = expected - 1;
      const anchor = head ?? { seq: 0, hash: GENESIS_HASH };
      if (anchor.seq > last) return { ok: false, firstBadSeq: last + 1, reason: 'missing' };
      if (anchor.seq < last) return { ok: false, firstBadSeq: anchor.seq + 1, reason: 'head-mismatch' };
      if (anchor.hash !== previous) return { ok: false, firstBadSeq: Math.max(last, 1), reason: 'head-mismatch' };
      return { ok: true, entries: last, head: previous };
    },
  };
}

/** Verifies a whole journal: its rows in seq order and its head (see chainVerifier). */
export function verifyChain(rows: readonly JournalRow[], head: JournalHead | undefined, sha256: Sha256Hex = sha256Hex): ChainVerdict {
  const verifier = chainVerifier(sha256);
  verifier.feed(rows);
  return verifier.finish(head);
}

/** The row to store for the next entry after `head`: seq and prevHash follow it, the hash is computed. */
export function nextRow(
  head: JournalHead,
  entry: { readonly at: string; readonly kind: string; readonly ref: string; readonly amount?: Money; readonly data: JsonObject },
  sha256: Sha256Hex = sha256Hex,
): JournalRow {
  const amount = entry.amount === undefined ? undefined : { amount: entry.amount.amount, currency: entry.amount.currency };
  const seq = head.seq + 1;
  return {
    seq,
    at: entry.at,
    kind: entry.kind,
    ref: entry.ref,
    amount: amount === undefined ? null : canonicalJson(amount),
    data: canonicalJson(entry.data),
    prevHash: head.hash,
    hash: entryHash({ seq, at: entry.at, kind: entry.kind, ref: entry.ref, amount, data: entry.data, prevHash: head.hash }, sha256),
  };
}

/** The value of JSON text stored in canonical form; undefined when it is not JSON or not canonical. */
function canonicalParse(text: string): unknown {
  const value = parseJson(text);
  return value !== undefined && canonicalJson(value) === text ? value : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isMoney(value: unknown): value is Money {
  return typeof value === 'object' && value !== null && 'amount' in value && 'currency' in value
    && typeof value.amount === 'number' && Number.isInteger(value.amount) && typeof value.currency === 'string';
}
