import type { WireJournalEntry } from '../contract/hub-journal';
import type { Storage } from '../shared/context';
import { wireEntryOf } from './journal-wire';

/** GET /hub/journal?terminal= (scope admin): a terminal's journal as its hub holds it, in seq order, a page at a time. */
export async function readTerminalJournal(ctx: Storage, terminal: string, after: number, limit: number): Promise<{ data: WireJournalEntry[]; nextAfter?: number }> {
  const rows = await ctx.store.repos.terminalJournals.entries(terminal, after, limit + 1);
  const page = rows.slice(0, limit).map(wireEntryOf);
  const last = page.at(-1);
  return { data: page, ...(rows.length > limit && last && { nextAfter: last.seq }) };
}
