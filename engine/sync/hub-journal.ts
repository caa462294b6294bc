import { createHash } from 'node:crypto';
import { EngineError } from '../domain/errors';
import { GENESIS_HASH, canonicalJson, entryHash } from '../domain/journal';
import type { Caller } from '../domain/scopes';
import type { HubJournalAnswer, WireJournalEntry } from '../contract/hub-journal';
import type { Clock, Storage } from '../shared/context';
import type { StoredJournalRow } from '../store/terminal-journal-repo';
import type { Tx } from '../store/port';
import { shiftClosingOf, shiftOpeningOf } from './terminal-shifts';

/**
 * POST /hub/journal (contract §14, hub only): a terminal's journal entries, stored exactly once by (terminal, seq).
 * The terminal is the caller's key owner (the id of its first sync key, kept by `keys replace`).
 *
 * Checked before anything is stored, all or nothing per request:
 * - the entries are consecutive (400 INVALID_FIELD_VALUE otherwise: a client mistake);
 * - each entry's hash is the hash of its content, and each continues the one before it (409 JOURNAL_CHAIN_BROKEN,
 *   `details: { seq, reason: 'hash-mismatch' | 'chain-broken' | 'differs' }`);
 * - the first entry is at most one past the last one held (409 JOURNAL_GAP, `details: { lastSeq, expectedSeq }`:
 *   the terminal sends again from there); entries already held must be the very same (same hash: a repeat after a
 *   lost answer is answered as a success; another hash is `differs`), and the first new one continues the held head.
 * The answer names the last seq now held: the terminal's cursor.
 */

/** SHA-256 by node:crypto (the domain's pure one is its oracle; this is ~6× faster per entry). */
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The terminal a sync key stands for at its hub. */
export const terminalOf = (caller: Caller): string => caller.owner;

export async function receiveTerminalJournal(ctx: Storage & Clock, caller: Caller, entries: readonly WireJournalEntry[]): Promise<HubJournalAnswer> {
  checkChain(entries);
  const keyId = terminalOf(caller);
  return ctx.store.transaction(async (tx) => {
    // one writer per terminal chain (PostgreSQL: several hub processes; SQLite: the write lock already)
    await tx.locks.named(`terminal-journal:${keyId}`);
    const head = (await tx.terminalJournals.head(keyId)) ?? { seq: 0, hash: GENESIS_HASH };
    const [first] = entries;
    const last = entries.at(-1);
    if (!first || !last) return { lastSeq: head.seq, head: head.hash, stored: 0 };
    if (first.seq > head.seq + 1) throw new EngineError('JOURNAL_GAP', { param: 'entries[0].seq', details: { lastSeq: head.seq, expectedSeq: head.seq + 1 } });
    await checkHeld(tx, keyId, entries, head.seq);
    const fresh = entries.filter((entry) => entry.seq > head.seq);
    const next = fresh[0];
    if (!next) return { lastSeq: head.seq, head: head.hash, stored: 0 };
    if (next.prevHash !== head.hash) throw broken(entries.indexOf(next), next.seq, 'chain-broken');
    await tx.terminalJournals.append(keyId, fresh.map(rowOf), ctx.now());
    for (const entry of fresh) await deriveShift(tx, keyId, entry);
    return { lastSeq: last.seq, head: last.hash, stored: fresh.length };
  });
}

/** The request on its own: consecutive seqs, each hash its content's, each entry chained to the one before. */
function checkChain(entries: readonly WireJournalEntry[]): void {
  let before: WireJournalEntry | undefined;
  for (const [index, entry] of entries.entries()) {
    if (before && entry.seq !== before.seq + 1) {
      throw new EngineError('INVALID_FIELD_VALUE', { param: `entries[${index}].seq`, details: { reason: 'not_consecutive', expectedSeq: before.seq + 1 } });
    }
    const { hash, ...content } = entry;
    if (entryHashOf(content, index) !== hash) throw broken(index, entry.seq, 'hash-mismatch');
    if (before && entry.prevHash !== before.hash) throw broken(index, entry.seq, 'chain-broken');
    before = entry;
  }
}

/**
 * An entry's hash; 400 INVALID_FIELD_VALUE (reason not_json) when its data holds what JSON cannot (a number the
 * request's JSON made Infinity, 1e400): no terminal journals that, and canonicalJson refuses it.
 */
function entryHashOf(content: Omit<WireJournalEntry, 'hash'>, index: number): string {
  try {
    return entryHash(content, sha256);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new EngineError('INVALID_FIELD_VALUE', { param: `entries[${index}].data`, details: { reason: 'not_json' } });
  }
}

/** Entries at or below the held head must be the ones held (a repeat), hash for hash. */
async function checkHeld(tx: Tx, keyId: string, entries: readonly WireJournalEntry[], headSeq: number): Promise<void> {
  const [first] = entries;
  if (!first || first.seq > headSeq) return;
  const held = new Map((await tx.terminalJournals.hashes(keyId, first.seq, headSeq)).map((row) => [row.seq, row.hash]));
  for (const [index, entry] of entries.entries()) {
    if (entry.seq > headSeq) break;
    if (held.get(entry.seq) !== entry.hash) throw broken(index, entry.seq, 'differs');
  }
}

const broken = (index: number, seq: number, reason: 'hash-mismatch' | 'chain-broken' | 'differs'): EngineError =>
  new EngineError('JOURNAL_CHAIN_BROKEN', { param: `entries[${index}]`, details: { seq, reason } });

/** The row as the terminal's `journal` table holds it: amount and data as canonical JSON text (journal/append.ts). */
function rowOf(entry: WireJournalEntry): StoredJournalRow {
  return {
    seq: entry.seq,
    at: entry.at,
    kind: entry.kind,
    ref: entry.ref,
    amount: entry.amount === undefined ? null : canonicalJson(entry.amount),
    data: canonicalJson(entry.data),
    prevHash: entry.prevHash,
    hash: entry.hash,
  };
}

/** A shift's opening or closing, as the terminal's shifts list at the hub shows it. */
async function deriveShift(tx: Tx, keyId: string, entry: WireJournalEntry): Promise<void> {
  const opening = shiftOpeningOf(entry);
  if (opening) await tx.terminalJournals.openShift(keyId, opening);
  const closing = shiftClosingOf(entry);
  if (closing) await tx.terminalJournals.closeShift(keyId, closing);
}
