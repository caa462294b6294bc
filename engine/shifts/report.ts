import { EngineError } from '../domain/errors';
import { foldShiftReport, type ReportFigures } from '../domain/shift-report';
import type { ShiftReport } from '../contract/shift';
import type { Storage } from '../shared/context';
import type { Tx } from '../store/port';
import type { ShiftRow } from '../store/shift-repo';
import { shiftEntriesIn } from './report-entries';
import { shiftView } from './shift-view';

/**
 * GET /shifts/{id}/report (contract §14): an open shift's X report, computed now from its journal entries; a
 * closed shift's Z report, the copy frozen at its close (never computed again, so later sales, a catalog change
 * or a new rate cannot change it). 404 RESOURCE_NOT_FOUND for an unknown shift.
 */
export async function readShiftReport(ctx: Storage, shiftId: string): Promise<ShiftReport> {
  return ctx.store.transaction(async (tx) => {
    const shift = await tx.shifts.get(shiftId);
    if (!shift) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'shiftId' });
    if (shift.report !== null) return shift.report;
    return { kind: 'X', shift: shiftView(shift), ...(await shiftFiguresIn(tx, shift)) };
  }, { readOnly: true });
}

/** The figures of a shift's report as of now, inside the caller's transaction (the fold of its journal entries). */
export async function shiftFiguresIn(tx: Pick<Tx, 'journal'>, shift: Pick<ShiftRow, 'id' | 'openingFloat' | 'currency'>): Promise<ReportFigures> {
  const entries = await shiftEntriesIn(tx, shift.id);
  return foldShiftReport({ amount: shift.openingFloat, currency: shift.currency }, entries);
}
