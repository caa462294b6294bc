import Value from 'typebox/value';
import { ShiftReport } from '../contract/shift';
import type { Db } from './db';

/**
 * Shifts and their cash movements (issue #25, contract §14). Every method runs in the caller's transaction; the
 * shift use cases take the journal head lock first, so one of them at a time decides on the open shift and on the
 * next number. Money in minor units of the shift's `currency`, times in epoch milliseconds.
 */

export interface ShiftRow {
  id: string;
  number: number;
  status: 'open' | 'closed';
  openedAt: number;
  openingFloat: number;
  currency: string;
  staff: string | null;
  closedAt: number | null;
  zNumber: number | null;
  expected: number | null;
  counted: number | null;
  difference: number | null;
  note: string | null;
  /** the Z report frozen at the close (decoded and checked here); null while open */
  report: ShiftReport | null;
}

export type NewShift = Pick<ShiftRow, 'id' | 'number' | 'openedAt' | 'openingFloat' | 'currency' | 'staff'>;

export interface ShiftClosing {
  closedAt: number;
  zNumber: number;
  expected: number;
  counted: number;
  difference: number;
  note: string | null;
  report: ShiftReport;
}

export interface CashMovementRow {
  id: string;
  shiftId: string;
  kind: 'payIn' | 'payOut';
  amount: number;
  currency: string;
  reason: string;
  at: number;
}

/** a row as stored, its report still JSON text */
export type StoredShiftRow = Omit<ShiftRow, 'report'> & { report: string | null };

export const SHIFT_COLUMNS = `id, number, status, opened_at AS "openedAt", opening_float AS "openingFloat", currency, staff, closed_at AS "closedAt",
  z_number AS "zNumber", expected, counted, difference, note, report`;

export const MOVEMENT_COLUMNS = 'id, shift_id AS "shiftId", kind, amount, currency, reason, at';

/** The stored row with its frozen report decoded and checked against the contract's shape (both adapters). */
export function decodeShift(row: StoredShiftRow): ShiftRow {
  if (row.report === null) return { ...row, report: null };
  const report: unknown = JSON.parse(row.report);
  if (!Value.Check(ShiftReport, report)) throw new Error(`shift ${row.id}: its stored Z report is not a report`);
  return { ...row, report };
}

export function createShiftRepo(db: Db) {
  const open = db.prepare<[], StoredShiftRow>(`SELECT ${SHIFT_COLUMNS} FROM shifts WHERE status = 'open'`);
  const byId = db.prepare<[string], StoredShiftRow>(`SELECT ${SHIFT_COLUMNS} FROM shifts WHERE id = ?`);
  const page = db.prepare<[number, number], StoredShiftRow>(`SELECT ${SHIFT_COLUMNS} FROM shifts WHERE number < ? ORDER BY number DESC LIMIT ?`);
  const nextNumber = db.prepare<[], { n: number }>('SELECT COALESCE(MAX(number), 0) + 1 AS n FROM shifts');
  const nextZNumber = db.prepare<[], { n: number }>('SELECT COALESCE(MAX(z_number), 0) + 1 AS n FROM shifts');
  const insert = db.prepare<[NewShift]>(`INSERT INTO shifts (id, number, status, opened_at, opening_float, currency, staff)
    VALUES (@id, @number, 'open', @openedAt, @openingFloat, @currency, @staff) ON CONFLICT DO NOTHING`);
  const close = db.prepare<[ShiftClosing & { id: string; reportJson: string }]>(`UPDATE shifts SET status = 'closed', closed_at = @closedAt,
    z_number = @zNumber, expected = @expected, counted = @counted, difference = @difference, note = @note, report = @reportJson
    WHERE id = @id AND status = 'open'`);
  const addMovement = db.prepare<[CashMovementRow]>(`INSERT INTO cash_movements (id, shift_id, kind, amount, currency, reason, at)
    VALUES (@id, @shiftId, @kind, @amount, @currency, @reason, @at)`);
  const movements = db.prepare<[string], CashMovementRow>(`SELECT ${MOVEMENT_COLUMNS} FROM cash_movements WHERE shift_id = ? ORDER BY at, id`);

  return {
    /** the id of the open shift, if any (appendJournal writes it into every entry's data: engine/journal) */
    openId: (): string | undefined => open.get()?.id,
    /** the open shift, if any */
    current: (): ShiftRow | undefined => {
      const row = open.get();
      return row && decodeShift(row);
    },
    get: (id: string): ShiftRow | undefined => {
      const row = byId.get(id);
      return row && decodeShift(row);
    },
    /** newest first: the `limit` shifts numbered below `beforeNumber` (all when absent) */
    page: (limit: number, beforeNumber?: number): ShiftRow[] => page.all(beforeNumber ?? Number.MAX_SAFE_INTEGER, limit).map(decodeShift),
    /** the number the next shift opens with: 1, 2, 3 … */
    nextNumber: (): number => nextNumber.get()?.n ?? 1,
    /** the next Z number: 1, 2, 3 … without gaps (called in the closing transaction, under the journal head lock) */
    nextZNumber: (): number => nextZNumber.get()?.n ?? 1,
    /** opens a shift; false when one is open already (the database allows one) */
    insert: (shift: NewShift): boolean => insert.run(shift).changes === 1,
    /** closes an open shift with its figures and frozen report; false when it is not open */
    close: (id: string, closing: ShiftClosing): boolean => close.run({ ...closing, id, reportJson: JSON.stringify(closing.report) }).changes === 1,
    addMovement: (movement: CashMovementRow): void => void addMovement.run(movement),
    /** a shift's pay-ins and pay-outs, oldest first */
    movements: (shiftId: string): CashMovementRow[] => movements.all(shiftId),
  };
}

export type ShiftRepo = ReturnType<typeof createShiftRepo>;
