import type { JournalEntryBody } from '../contract/journal';
import { JOURNAL_PAGE_DEFAULT } from '../contract/journal';
import { chainVerifier, entryOfRow, type ChainVerdict, type JournalRow } from '../domain/journal';
import type { Storage } from '../shared/context';

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

/**
 * GET /journal/verify (contract §14): every row recomputed and chained, and the last one compared with the head.
 * The head is read first and the rows up to its seq after it, a page at a time outside any transaction (a long
 * journal never holds up sales): rows up to the head were committed with it, and entries appended meanwhile lie
 * beyond it. Answers the first fault, or `{ ok, entries, head }`.
 */
export async function verifyJournal(ctx: Storage): Promise<ChainVerdict> {
  const journal = ctx.store.repos.journal;
  const head = await journal.head();
  const last = head?.seq ?? 0;
  const verifier = chainVerifier();
  let after = 0;
  for (;;) {
    const rows = (await journal.list(after, VERIFY_PAGE)).filter((row) => row.seq <= last);
    if (!verifier.feed(rows)) break;
    const end = rows.at(-1);
    if (end === undefined || rows.length < VERIFY_PAGE) break;
    after = end.seq;
  }
  return verifier.finish(head);
}

function entryBody(row: JournalRow): JournalEntryBody {
  const entry = entryOfRow(row);
  if (entry) return { ...entry, data: { ...entry.data } };
  return { seq: row.seq, at: row.at, kind: row.kind, ref: row.ref, data: { unreadable: row.data }, prevHash: row.prevHash, hash: row.hash };
}
