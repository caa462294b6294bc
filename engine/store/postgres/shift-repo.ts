import type { Async } from '../port-types';
import { decodeShift, MOVEMENT_COLUMNS, SHIFT_COLUMNS, type CashMovementRow, type ShiftRepo, type StoredShiftRow } from '../shift-repo';
import type { Queryable } from './queryable';

/**
 * Shifts and their cash movements on PostgreSQL (issue #25, contract §14), as the SQLite repository. Every engine
 * process sharing the database is one engine: one open shift in the database. The use cases serialize on the
 * journal head lock; should two opens still meet, the partial unique index `shifts_one_open` lets one insert
 * through and `insert` answers false for the other (ON CONFLICT DO NOTHING), and `close` is a conditional update
 * on `status = 'open'`, so a shift is closed once.
 */
export function createPgShiftRepo(q: Queryable): Async<ShiftRepo> {
  const shifts = async (sql: string, values: unknown[]) => (await q.query<StoredShiftRow>(sql, values)).rows.map(decodeShift);
  const next = async (sql: string) => (await q.query<{ n: number }>(sql)).rows[0]?.n ?? 1;
  return {
    openId: async () => (await q.query<{ id: string }>("SELECT id FROM shifts WHERE status = 'open'")).rows[0]?.id,
    current: async () => (await shifts(`SELECT ${SHIFT_COLUMNS} FROM shifts WHERE status = 'open'`, []))[0],
    get: async (id) => (await shifts(`SELECT ${SHIFT_COLUMNS} FROM shifts WHERE id = $1`, [id]))[0],
    page: (limit, beforeNumber) =>
      shifts(`SELECT ${SHIFT_COLUMNS} FROM shifts WHERE number < $1 ORDER BY number DESC LIMIT $2`, [beforeNumber ?? Number.MAX_SAFE_INTEGER, limit]),
    nextNumber: () => next('SELECT COALESCE(MAX(number), 0)::bigint + 1 AS n FROM shifts'),
    nextZNumber: () => next('SELECT COALESCE(MAX(z_number), 0)::bigint + 1 AS n FROM shifts'),
    insert: async (shift) => ((await q.query(`INSERT INTO shifts (id, number, status, opened_at, opening_float, currency, staff)
      VALUES ($1, $2, 'open', $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [shift.id, shift.number, shift.openedAt, shift.openingFloat, shift.currency, shift.staff])).rowCount ?? 0) === 1,
    close: async (id, closing) => ((await q.query(`UPDATE shifts SET status = 'closed', closed_at = $2, z_number = $3, expected = $4, counted = $5,
      difference = $6, note = $7, report = $8 WHERE id = $1 AND status = 'open'`,
    [id, closing.closedAt, closing.zNumber, closing.expected, closing.counted, closing.difference, closing.note, JSON.stringify(closing.report)])).rowCount ?? 0) === 1,
    addMovement: async (movement) => {
      await q.query('INSERT INTO cash_movements (id, shift_id, kind, amount, currency, reason, at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [movement.id, movement.shiftId, movement.kind, movement.amount, movement.currency, movement.reason, movement.at]);
    },
    movements: async (shiftId) => (await q.query<CashMovementRow>(`SELECT ${MOVEMENT_COLUMNS} FROM cash_movements WHERE shift_id = $1 ORDER BY at, id`, [shiftId])).rows,
  };
}
