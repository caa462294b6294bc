import type { JournalEntryBody } from '../contract/journal';
import { JOURNAL_PAGE_DEFAULT } from '../contract/journal';
import { chainVerifier, entryOfRow, type ChainVerdict, type JournalRow } from '../domain/journal';
import type { Storage } from '../shared/context';
import { sha256 } from './hash';

/** How many rows verification reads at a time. */
const VERIFY_PAGE = 1000;

/**
 * GET /journal (contract §14): up to `limit` entries after seq `after`, in seq order, and `nextAfter` when more
 * follow. A row whose JSON was made unreadable by hand is shown with `data: { unreadable: <its text> }` and no
 * amount (verification reports it).
 */
export async function listJournal(ctx: Storage, query: { readonly after?: number; readonly limit?: number }): Promise<{ data: JournalEntryBody[]; nextAfter?: number }> {
  const limit = query.limit ?? JOURNAL_PAGE_DEFAULT;
  const rows = await ctx.store.repos.journal.list(query.after ?? 0, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { data: page.map(entryBody), ...(rows.length > limit && last !== undefined && { nextAfter: last.seq }) };
}

/** How often verification follows a head that moved while it read (sales go on meanwhile) before it answers. */
const ROUNDS = 5;

/**
 * GET /journal/verify (contract §14): every row recomputed and chained, and the last one compared with the head.
 * The head is read first and the rows up to its seq after it, a page at a time outside any transaction (a long
 * journal never holds up sales): rows up to the head were committed with it. Rows found beyond it were appended
 * meanwhile — then the newer head is read and they are checked up to it — or were written by hand past a head that
 * has not moved: head-mismatch. Answers the first fault, or `{ ok, entries, head }`.
 */
export async function verifyJournal(ctx: Storage): Promise<ChainVerdict> {
  const journal = ctx.store.repos.journal;
  const verifier = chainVerifier(sha256);
  let head = await journal.head();
  let after = 0;
  for (let round = 1; ; round++) {
    const upTo = head?.seq ?? 0;
    for (;;) {
      const page = await journal.list(after, VERIFY_PAGE);
      const rows = page.filter((row) => row.seq <= upTo);
      if (!verifier.feed(rows)) return verifier.finish(head);
      after = rows.at(-1)?.seq ?? after;
      if (rows.length < VERIFY_PAGE) break;
    }
    const beyond = await journal.list(upTo, 1);
    if (beyond.length === 0 || round === ROUNDS) return verifier.finish(head);
    const newer = await journal.head();
    if ((newer?.seq ?? 0) <= upTo) return { ok: false, firstBadSeq: upTo + 1, reason: 'head-mismatch' };
    head = newer;
  }
}

function entryBody(row: JournalRow): JournalEntryBody {
  const entry = entryOfRow(row);
  if (entry) return { ...entry, data: { ...entry.data } };
  return { seq: row.seq, at: row.at, kind: row.kind, ref: row.ref, data: { unreadable: row.data }, prevHash: row.prevHash, hash: row.hash };
}
