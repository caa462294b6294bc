import type { ShiftReport } from '../contract/shift';
import { EngineError } from '../domain/errors';
import { entryOfRow, type JournalEntry } from '../domain/journal';
import type { Clock, Storage } from '../shared/context';
import type { Tx } from '../store/port';
import { exportFileName, exportZip } from './export-zip';
import { shiftFiguresIn } from './report';
import { shiftView } from './shift-view';

/** how many journal entries one read takes */
const PAGE = 1000;

export interface ShiftExport {
  /** `kassa-shift-<number>.zip` */
  readonly fileName: string;
  readonly bytes: Uint8Array;
}

/**
 * GET /shifts/{id}/export (design "Export and print"): the shift's report and every journal entry of it as CSV
 * files in a zip. Read in one read-only transaction, so the totals of an open shift's X export and its journal
 * rows are of one moment; a closed shift's Z report is its frozen copy. Unknown shift: 404 RESOURCE_NOT_FOUND.
 * A journal row that cannot be read (changed by hand) fails the export (500), as it fails the report:
 * GET /journal/verify names it.
 */
export async function exportShift(ctx: Storage & Clock, shiftId: string): Promise<ShiftExport> {
  const { report, entries } = await ctx.store.transaction(async (tx) => {
    const shift = await tx.shifts.get(shiftId);
    if (!shift) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'shiftId' });
    const current: ShiftReport = shift.report ?? { kind: 'X', shift: shiftView(shift), ...(await shiftFiguresIn(tx, shift)) };
    return { report: current, entries: await journalOfShiftIn(tx, shiftId) };
  }, { readOnly: true });
  return { fileName: exportFileName(report), bytes: exportZip(report, entries, new Date(ctx.now())) };
}

/** Every journal entry of the shift, in seq order, as the API shows entries. */
async function journalOfShiftIn(tx: Pick<Tx, 'journal'>, shiftId: string): Promise<JournalEntry[]> {
  const entries: JournalEntry[] = [];
  let after = 0;
  for (;;) {
    const rows = await tx.journal.ofShift(shiftId, after, PAGE);
    for (const row of rows) {
      const entry = entryOfRow(row);
      if (!entry) throw new Error(`journal entry ${row.seq} cannot be read for the export of shift ${shiftId}`);
      entries.push(entry);
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < PAGE) return entries;
    after = last.seq;
  }
}
