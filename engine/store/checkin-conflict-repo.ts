import type { Db } from './db';

/**
 * A hub's DUPLICATE_ENTRY conflicts (issue #26, migration 0028): a terminal's offline "in" for a ticket that was
 * inside already. Added by the check-in import in its transaction, listed while open, resolved with a note.
 */

export interface NewCheckinConflict {
  /** the second entry's check-in id (a conflict per check-in, once: the import may be sent again) */
  checkinId: string;
  ticketCode: string;
  orderId: string;
  occurrenceId: string;
  firstGate: string;
  firstAt: string;
  secondGate: string;
  secondAt: string;
  /** the terminal the second entry came from */
  source: string | null;
}

export interface CheckinConflictRow extends NewCheckinConflict {
  id: number;
  createdAt: number;
  state: 'open' | 'resolved';
  resolvedNote: string | null;
}

const COLUMNS = `id, checkin_id AS checkinId, ticket_code AS ticketCode, order_id AS orderId, occurrence_id AS occurrenceId,
  first_gate AS firstGate, first_at AS firstAt, second_gate AS secondGate, second_at AS secondAt, source, created_at AS createdAt,
  state, resolved_note AS resolvedNote`;

export function createCheckinConflictRepo(db: Db) {
  const insert = db.prepare<[string, string, string, string, string, string, string, string, string | null, number]>(
    `INSERT INTO checkin_conflicts (checkin_id, ticket_code, order_id, occurrence_id, first_gate, first_at, second_gate, second_at, source, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (checkin_id) DO NOTHING`);
  const open = db.prepare<[], CheckinConflictRow>(`SELECT ${COLUMNS} FROM checkin_conflicts WHERE state = 'open' ORDER BY id`);
  const byId = db.prepare<[number], CheckinConflictRow>(`SELECT ${COLUMNS} FROM checkin_conflicts WHERE id = ?`);
  const resolve = db.prepare<[string, number, number]>("UPDATE checkin_conflicts SET state = 'resolved', resolved_note = ?, resolved_at = ? WHERE id = ? AND state = 'open'");
  return {
    /** adds the conflict of a check-in (nothing when that check-in has one already) */
    add: (row: NewCheckinConflict, now: number) =>
      void insert.run(row.checkinId, row.ticketCode, row.orderId, row.occurrenceId, row.firstGate, row.firstAt, row.secondGate, row.secondAt, row.source, now),
    /** the open conflicts, oldest first */
    open: () => open.all(),
    get: (id: number) => byId.get(id),
    /** true when it was open and is resolved now */
    resolve: (id: number, note: string, now: number) => resolve.run(note, now, id).changes > 0,
  };
}

export type CheckinConflictRepo = ReturnType<typeof createCheckinConflictRepo>;
