import type { CheckinConflictRepo, CheckinConflictRow, NewCheckinConflict } from '../checkin-conflict-repo';
import type { Async } from '../port-types';
import type { Queryable } from './queryable';

/** PostgreSQL twin of store/checkin-conflict-repo.ts: a hub's DUPLICATE_ENTRY conflicts (issue #26). */

const COLUMNS = `id, checkin_id AS "checkinId", ticket_code AS "ticketCode", order_id AS "orderId", occurrence_id AS "occurrenceId",
  first_gate AS "firstGate", first_at AS "firstAt", second_gate AS "secondGate", second_at AS "secondAt", source, created_at AS "createdAt",
  state, resolved_note AS "resolvedNote"`;

export function createPgCheckinConflictRepo(q: Queryable): Async<CheckinConflictRepo> {
  return {
    async add(row: NewCheckinConflict, now: number): Promise<undefined> {
      await q.query(
        `INSERT INTO checkin_conflicts (checkin_id, ticket_code, order_id, occurrence_id, first_gate, first_at, second_gate, second_at, source, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (checkin_id) DO NOTHING`,
        [row.checkinId, row.ticketCode, row.orderId, row.occurrenceId, row.firstGate, row.firstAt, row.secondGate, row.secondAt, row.source, now]);
      return undefined;
    },
    async open(): Promise<CheckinConflictRow[]> {
      return (await q.query<CheckinConflictRow>(`SELECT ${COLUMNS} FROM checkin_conflicts WHERE state = 'open' ORDER BY id`)).rows;
    },
    async get(id: number): Promise<CheckinConflictRow | undefined> {
      return (await q.query<CheckinConflictRow>(`SELECT ${COLUMNS} FROM checkin_conflicts WHERE id = $1`, [id])).rows[0];
    },
    async resolve(id: number, note: string, now: number): Promise<boolean> {
      return ((await q.query("UPDATE checkin_conflicts SET state = 'resolved', resolved_note = $1, resolved_at = $2 WHERE id = $3 AND state = 'open'", [note, now, id])).rowCount ?? 0) > 0;
    },
  };
}
