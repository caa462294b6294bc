import { JOURNAL_BATCH_LIMIT, type HubJournalAnswer, type WireJournalEntry } from '../contract/hub-journal';
import type { Durability, Storage } from '../shared/context';
import type { Channel } from './channel';
import { wireEntryOf } from './journal-wire';
import { refused } from './refusal';
import { dataOf, errorOf } from './upstream';

/**
 * A terminal's journal to its hub (contract §14), one batch per call: the entries after the last one the hub
 * confirmed (the cursor, kept in sync_state), in seq order, up to the first one whose order the outbox has not
 * delivered yet — so the hub never holds an entry ahead of the order it records. The request is idempotent at the
 * hub (by terminal and seq), so it goes through the channel's retry rules like an order import, and again after a
 * lost answer; the cursor moves only when the hub names what it holds.
 */

/** The sync_state row of the cursor: the last seq the hub confirmed (0: none). */
export const JOURNAL_CURSOR = 'journal_confirmed_seq';

/** A batch stops growing past this many bytes of JSON (a Z report is a few kilobytes; the hub takes 4 MiB). */
const BATCH_BYTES = 1024 * 1024;

export type JournalOutcome =
  /** nothing may go now (all confirmed, or the next entry waits for its order) */
  | { readonly kind: 'idle' }
  /** the hub holds everything up to `confirmedSeq` now; `full`: the batch was as large as allowed (more may wait) */
  | { readonly kind: 'sent'; readonly confirmedSeq: number; readonly full: boolean }
  /** the hub holds less than the cursor said (JOURNAL_GAP: its database was restored): the cursor went back */
  | { readonly kind: 'rewound'; readonly confirmedSeq: number }
  /** refused for good (JOURNAL_CHAIN_BROKEN, or another refusal): nothing goes until someone acts */
  | { readonly kind: 'refused'; readonly code: string; readonly message: string }
  | { readonly kind: 'retry'; readonly reason: string; readonly keyRejected?: boolean; readonly rediscover?: boolean };

/** The last seq the hub confirmed. */
export async function journalCursor(ctx: Storage): Promise<number> {
  const value = Number((await ctx.store.repos.outbox.state(JOURNAL_CURSOR)) ?? 0);
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

/** The entries that may go now: after the cursor, in order, up to one waiting for its order or the batch's size. */
async function outgoing(ctx: Storage, cursor: number, limit: number): Promise<WireJournalEntry[]> {
  const rows = await ctx.store.repos.journalSync.outgoing(cursor, limit);
  const entries: WireJournalEntry[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (row.waitsForOrder !== 0) break;
    bytes += row.data.length + 200;
    if (entries.length > 0 && bytes > BATCH_BYTES) break;
    entries.push(wireEntryOf(row));
  }
  return entries;
}

export async function deliverJournal(ctx: Storage & Durability, hub: Channel, limit: number = JOURNAL_BATCH_LIMIT): Promise<JournalOutcome> {
  const cursor = await journalCursor(ctx);
  const entries = await outgoing(ctx, cursor, Math.min(limit, JOURNAL_BATCH_LIMIT));
  const last = entries.at(-1);
  if (!last) return { kind: 'idle' };
  // the hub learns of no entry this terminal could still lose at a power cut
  await ctx.whenDurable();
  const answer = await hub.post('/hub/journal', { entries }, { repeatable: true });
  const held = answer.status === 200 ? dataOf<HubJournalAnswer>(answer) : undefined;
  if (held && typeof held.lastSeq === 'number') {
    // never past what was sent and compared: entries the hub holds beyond it are sent again and checked
    const confirmedSeq = Math.min(held.lastSeq, last.seq);
    if (confirmedSeq > cursor) await ctx.store.repos.outbox.setState(JOURNAL_CURSOR, String(confirmedSeq));
    return { kind: 'sent', confirmedSeq: Math.max(cursor, confirmedSeq), full: entries.length >= limit };
  }
  const error = errorOf(answer);
  if (error?.code === 'JOURNAL_GAP' && typeof error.details.lastSeq === 'number' && error.details.lastSeq < cursor) {
    await ctx.store.repos.outbox.setState(JOURNAL_CURSOR, String(Math.max(0, error.details.lastSeq)));
    return { kind: 'rewound', confirmedSeq: error.details.lastSeq };
  }
  if (answer.status === 404 && error?.code !== 'INSUFFICIENT_PERMISSIONS') return { kind: 'retry', reason: 'the upstream no longer takes journals', rediscover: true };
  const outcome = refused(answer);
  if (outcome.kind === 'retry') return { kind: 'retry', reason: `journal: ${outcome.reason}`, ...(outcome.keyRejected && { keyRejected: true }) };
  if (outcome.kind === 'conflict') return { kind: 'refused', code: outcome.code, message: outcome.message };
  return { kind: 'retry', reason: 'journal: unexpected answer' };
}
