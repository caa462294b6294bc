import type { Db } from './db';

/**
 * A hub's copy of its terminals' journals and the shifts they tell (store/migrations/0024). Every method runs in
 * the caller's transaction. `keyId` is the terminal: its sync key's owner.
 */

/** A journal row as stored (contract §14's columns): `amount` and `data` are JSON text. */
export interface StoredJournalRow {
  seq: number;
  at: string;
  kind: string;
  ref: string;
  amount: string | null;
  data: string;
  prevHash: string;
  hash: string;
}

export interface JournalHeadRow {
  keyId: string;
  seq: number;
  hash: string;
  receivedAt: number;
}

/** A terminal's shift as opened (from its `shiftOpened` entry); money in minor units of `currency`. */
export interface TerminalShiftOpening {
  id: string;
  number: number;
  openedAt: string;
  openingFloat: number;
  currency: string;
  staff: string | null;
}

/** What its `shiftClosed` entry adds; `report` is the Z report's JSON. */
export interface TerminalShiftClosing {
  id: string;
  closedAt: string;
  zNumber: number;
  expected: number;
  counted: number;
  difference: number;
  note: string | null;
  report: string;
}

export interface TerminalShiftRow extends TerminalShiftOpening {
  keyId: string;
  status: 'open' | 'closed';
  closedAt: string | null;
  zNumber: number | null;
  expected: number | null;
  counted: number | null;
  difference: number | null;
  note: string | null;
  report: string | null;
}

/** Where a page of shifts starts (newest first): after this shift. */
export interface ShiftPosition {
  openedAt: string;
  keyId: string;
  id: string;
}

export const JOURNAL_COLUMNS = 'seq, at, kind, ref, amount, data, prev_hash AS prevHash, hash';
export const SHIFT_COLUMNS = `key_id AS keyId, id, number, status, opened_at AS openedAt, opening_float AS openingFloat, currency, staff,
  closed_at AS closedAt, z_number AS zNumber, expected, counted, difference, note, report`;

export function createTerminalJournalRepo(db: Db) {
  const head = db.prepare<[string], JournalHeadRow>('SELECT key_id AS keyId, seq, hash, received_at AS receivedAt FROM terminal_journal_heads WHERE key_id = ?');
  const hashes = db.prepare<[string, number, number], { seq: number; hash: string }>(
    'SELECT seq, hash FROM terminal_journal WHERE key_id = ? AND seq BETWEEN ? AND ? ORDER BY seq');
  const insert = db.prepare<[string, number, string, string, string, string | null, string, string, string]>(
    'INSERT INTO terminal_journal (key_id, seq, at, kind, ref, amount, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const putHead = db.prepare<[string, number, string, number]>(
    `INSERT INTO terminal_journal_heads (key_id, seq, hash, received_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (key_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, received_at = excluded.received_at`);
  const entries = db.prepare<[string, number, number], StoredJournalRow>(
    `SELECT ${JOURNAL_COLUMNS} FROM terminal_journal WHERE key_id = ? AND seq > ? ORDER BY seq LIMIT ?`);
  const open = db.prepare<[string, string, number, string, number, string, string | null]>(
    `INSERT INTO terminal_shifts (key_id, id, number, status, opened_at, opening_float, currency, staff) VALUES (?, ?, ?, 'open', ?, ?, ?, ?)
     ON CONFLICT (key_id, id) DO NOTHING`);
  const close = db.prepare<[string, number, number, number, number, string | null, string, string, string]>(
    `UPDATE terminal_shifts SET status = 'closed', closed_at = ?, z_number = ?, expected = ?, counted = ?, difference = ?, note = ?, report = ?
     WHERE key_id = ? AND id = ?`);
  const newest = `ORDER BY opened_at DESC, key_id DESC, id DESC LIMIT ?`;
  const after = '(opened_at < ? OR (opened_at = ? AND (key_id < ? OR (key_id = ? AND id < ?))))';
  const shiftsOf = db.prepare<[string, number], TerminalShiftRow>(`SELECT ${SHIFT_COLUMNS} FROM terminal_shifts WHERE key_id = ? ${newest}`);
  const shiftsOfAfter = db.prepare<[string, string, string, string, string, string, number], TerminalShiftRow>(
    `SELECT ${SHIFT_COLUMNS} FROM terminal_shifts WHERE key_id = ? AND ${after} ${newest}`);
  const allShifts = db.prepare<[number], TerminalShiftRow>(`SELECT ${SHIFT_COLUMNS} FROM terminal_shifts ${newest}`);
  const allShiftsAfter = db.prepare<[string, string, string, string, string, number], TerminalShiftRow>(
    `SELECT ${SHIFT_COLUMNS} FROM terminal_shifts WHERE ${after} ${newest}`);

  return {
    /** the last entry held of a terminal's journal (undefined: none yet) */
    head: (keyId: string) => head.get(keyId),
    /** seq and hash of the entries held from `from` to `to` */
    hashes: (keyId: string, from: number, to: number) => hashes.all(keyId, from, to),
    /** appends rows (consecutive, continuing the head) and moves the head to the last */
    append(keyId: string, rows: readonly StoredJournalRow[], now: number): void {
      for (const row of rows) insert.run(keyId, row.seq, row.at, row.kind, row.ref, row.amount, row.data, row.prevHash, row.hash);
      const last = rows.at(-1);
      if (last) putHead.run(keyId, last.seq, last.hash, now);
    },
    /** up to `limit` entries after `afterSeq`, in seq order */
    entries: (keyId: string, afterSeq: number, limit: number) => entries.all(keyId, afterSeq, limit),
    openShift: (keyId: string, shift: TerminalShiftOpening) => void open.run(keyId, shift.id, shift.number, shift.openedAt, shift.openingFloat, shift.currency, shift.staff),
    closeShift: (keyId: string, shift: TerminalShiftClosing) =>
      void close.run(shift.closedAt, shift.zNumber, shift.expected, shift.counted, shift.difference, shift.note, shift.report, keyId, shift.id),
    /** shifts newest first, of one terminal or (keyId null) of every terminal, after `from` */
    shifts(keyId: string | null, limit: number, from?: ShiftPosition): TerminalShiftRow[] {
      const position = from ? ([from.openedAt, from.openedAt, from.keyId, from.keyId, from.id] as const) : undefined;
      if (keyId === null) return position ? allShiftsAfter.all(...position, limit) : allShifts.all(limit);
      return position ? shiftsOfAfter.all(keyId, ...position, limit) : shiftsOf.all(keyId, limit);
    },
  };
}

export type TerminalJournalRepo = ReturnType<typeof createTerminalJournalRepo>;
