import { Type } from 'typebox';
import Value from 'typebox/value';
import { entryOfRow, type JournalRow } from '../domain/journal';
import type { ReportEntry } from '../domain/shift-report';
import type { Tx } from '../store/port';

/**
 * A shift's journal entries as the report's fold reads them (domain/shift-report.ts): every entry whose
 * `data.shiftId` is the shift, in seq order, through the journal repository, each one's data checked against the
 * figures the fold takes (engine/journal writes them; docs/shifts.md, "What each entry holds"). An entry that cannot be read is a
 * journal changed by hand: the report fails (500) rather than leave it out.
 */

const MoneyShape = Type.Object({ amount: Type.Integer(), currency: Type.String() });
const Part = Type.Object({ method: Type.String(), amount: MoneyShape });
const OrderData = Type.Object({
  baseTotal: MoneyShape,
  payments: Type.Array(Part),
  events: Type.Array(Type.Object({ eventId: Type.String(), name: Type.String(), tickets: Type.Integer({ minimum: 0 }), total: MoneyShape })),
});
const CancellationData = Type.Object({ baseTotal: MoneyShape, refunds: Type.Array(Part) });

/** how many entries one read takes */
const PAGE = 1000;

/** Every entry of the shift, decoded for the fold, in seq order. */
export async function shiftEntriesIn(tx: Pick<Tx, 'journal'>, shiftId: string): Promise<ReportEntry[]> {
  const entries: ReportEntry[] = [];
  let after = 0;
  for (;;) {
    const rows = await tx.journal.ofShift(shiftId, after, PAGE);
    for (const row of rows) entries.push(reportEntryOf(row));
    const last = rows.at(-1);
    if (last === undefined || rows.length < PAGE) return entries;
    after = last.seq;
  }
}

/** One stored row as the fold's entry; throws when it cannot be read (a row changed by hand). */
export function reportEntryOf(row: JournalRow): ReportEntry {
  const entry = entryOfRow(row);
  const unreadable = () => new Error(`journal entry ${row.seq} (${row.kind}) cannot be read for a shift report`);
  if (!entry) throw unreadable();
  switch (entry.kind) {
    case 'order':
      if (!Value.Check(OrderData, entry.data)) throw unreadable();
      return { kind: 'order', data: entry.data };
    case 'cancellation':
      if (!Value.Check(CancellationData, entry.data)) throw unreadable();
      return { kind: 'cancellation', data: entry.data };
    case 'payIn':
    case 'payOut':
      if (entry.amount === undefined) throw unreadable();
      return { kind: entry.kind, amount: entry.amount };
    default:
      return { kind: 'other' };
  }
}
