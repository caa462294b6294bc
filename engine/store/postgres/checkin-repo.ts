import type { CheckinCountsRow, CheckinRepo, CheckinRow, CheckinShowRow, CheckinTicketRow, PresenceRow, TicketStateRow } from '../checkin-repo';
import type { Async } from '../port-types';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/checkin-repo.ts: check-ins at the door (migration 0027). A check-in reads the ticket's
 * presence and writes it while it holds the ticket's advisory lock (Locks.ticket), so two processes deciding on
 * one ticket at once decide one after the other. Runs in the caller's transaction.
 */

const CHECKIN_COLUMNS = `seq, id, ticket_code AS "ticketCode", order_id AS "orderId", occurrence_id AS "occurrenceId", direction, gate, at, source, synced`;

type StoredCheckin = Omit<CheckinRow, 'synced'> & { synced: number; seq: string | number };

const toCheckin = (row: StoredCheckin): CheckinRow & { seq: number } => ({ ...row, seq: Number(row.seq), synced: row.synced === 1 });

export function createPgCheckinRepo(q: Queryable): Async<CheckinRepo> {
  const rows = async <R extends object>(sql: string, values: unknown[]): Promise<R[]> => (await q.query<R & Record<string, unknown>>(sql, values)).rows;

  return {
    async ticket(code: string): Promise<CheckinTicketRow | undefined> {
      return (await rows<CheckinTicketRow>(`SELECT t.code, t.signed_code AS "signedCode", t.order_id AS "orderId", o.status, c.occurrence_id AS "occurrenceId",
          ii.area_id AS "areaId", a.name AS area, CASE WHEN a.seating = 'assigned' THEN ii.label END AS seat
        FROM tickets t JOIN orders o ON o.id = t.order_id JOIN carts c ON c.id = o.cart_id
        LEFT JOIN cart_items ci ON ci.id = t.item_id
        LEFT JOIN inventory_items ii ON ii.occurrence_id = c.occurrence_id AND ii.id = ci.inventory_item_id
        LEFT JOIN areas a ON a.occurrence_id = c.occurrence_id AND a.id = ii.area_id
        WHERE t.code = $1`, [code]))[0];
    },
    async show(occurrenceId: string): Promise<CheckinShowRow | undefined> {
      return (await rows<CheckinShowRow>(`SELECT oc.id AS "occurrenceId", oc.starts_at AS "startsAt", e.id AS "eventId", e.name AS "eventName"
        FROM occurrences oc JOIN events e ON e.id = oc.event_id WHERE oc.id = $1`, [occurrenceId]))[0];
    },
    async area(occurrenceId: string, areaId: string) {
      const [row] = await rows<{ area: string; seating: string }>('SELECT name AS area, seating FROM areas WHERE occurrence_id = $1 AND id = $2', [occurrenceId, areaId]);
      return row && { area: row.area, assigned: row.seating === 'assigned' };
    },
    async presence(code: string): Promise<PresenceRow | undefined> {
      const [row] = await rows<Omit<PresenceRow, 'inside'> & { inside: number }>(`SELECT occurrence_id AS "occurrenceId", inside, in_at AS "inAt", gate
        FROM ticket_presence WHERE ticket_code = $1`, [code]);
      return row && { ...row, inside: row.inside === 1 };
    },
    async state(code: string): Promise<TicketStateRow> {
      const [row] = await rows<Omit<CheckinTicketRow, 'code'> & { code: string | null; revoked: boolean; presenceOccurrenceId: string | null; inside: number | null;
        inAt: string | null; gate: string | null }>(`SELECT t.code, t.signed_code AS "signedCode", t.order_id AS "orderId", o.status, c.occurrence_id AS "occurrenceId",
          ii.area_id AS "areaId", a.name AS area, CASE WHEN a.seating = 'assigned' THEN ii.label END AS seat,
          EXISTS (SELECT 1 FROM ticket_revocations r WHERE r.code = k.code) AS revoked,
          p.occurrence_id AS "presenceOccurrenceId", p.inside, p.in_at AS "inAt", p.gate
        FROM (SELECT $1::text AS code) k
        LEFT JOIN tickets t ON t.code = k.code LEFT JOIN orders o ON o.id = t.order_id LEFT JOIN carts c ON c.id = o.cart_id
        LEFT JOIN cart_items ci ON ci.id = t.item_id
        LEFT JOIN inventory_items ii ON ii.occurrence_id = c.occurrence_id AND ii.id = ci.inventory_item_id
        LEFT JOIN areas a ON a.occurrence_id = c.occurrence_id AND a.id = ii.area_id
        LEFT JOIN ticket_presence p ON p.ticket_code = k.code`, [code]);
      if (!row) return { ticket: undefined, revoked: false, presence: undefined };
      const { code: sold, signedCode, orderId, status, occurrenceId, areaId, area, seat, revoked, presenceOccurrenceId, inside, inAt, gate } = row;
      return {
        ticket: sold === null ? undefined : { code: sold, signedCode, orderId, status, occurrenceId, areaId, area, seat },
        revoked,
        presence: presenceOccurrenceId === null || inAt === null || gate === null ? undefined : { occurrenceId: presenceOccurrenceId, inside: inside === 1, inAt, gate },
      };
    },
    async record(row: CheckinRow, after: Omit<PresenceRow, 'occurrenceId'>): Promise<boolean> {
      // one statement: the presence changes only when the check-in was new (idempotent by its id)
      const { rows: [written] } = await q.query<{ inserted: boolean }>(`WITH c AS (
          INSERT INTO checkins (id, ticket_code, order_id, occurrence_id, direction, gate, at, source, synced)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING RETURNING 1
        ), p AS (
          INSERT INTO ticket_presence (ticket_code, occurrence_id, inside, in_at, gate) SELECT $2, $4, $10, $11, $12 WHERE EXISTS (SELECT 1 FROM c)
          ON CONFLICT (ticket_code) DO UPDATE SET inside = excluded.inside, in_at = excluded.in_at, gate = excluded.gate RETURNING 1
        ) SELECT EXISTS (SELECT 1 FROM c) AS inserted`,
      [row.id, row.ticketCode, row.orderId, row.occurrenceId, row.direction, row.gate, row.at, row.source, row.synced ? 1 : 0, after.inside ? 1 : 0, after.inAt, after.gate]);
      return written?.inserted === true;
    },
    async history(code: string) {
      return (await rows<StoredCheckin>(`SELECT ${CHECKIN_COLUMNS} FROM checkins WHERE ticket_code = $1 ORDER BY at, seq`, [code])).map(toCheckin);
    },
    async setPresence(code: string, presence: PresenceRow): Promise<void> {
      await q.query(`INSERT INTO ticket_presence (ticket_code, occurrence_id, inside, in_at, gate) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (ticket_code) DO UPDATE SET inside = excluded.inside, in_at = excluded.in_at, gate = excluded.gate`,
      [code, presence.occurrenceId, presence.inside ? 1 : 0, presence.inAt, presence.gate]);
    },
    async byId(id: string) {
      const [row] = await rows<StoredCheckin>(`SELECT ${CHECKIN_COLUMNS} FROM checkins WHERE id = $1`, [id]);
      return row && toCheckin(row);
    },
    async counts(occurrenceId: string): Promise<CheckinCountsRow> {
      const [row] = await rows<Record<keyof CheckinCountsRow, string>>(`SELECT
          (SELECT COUNT(*) FROM ticket_presence WHERE occurrence_id = $1) AS admitted,
          (SELECT COUNT(*) FROM ticket_presence WHERE occurrence_id = $1 AND inside = 1) AS inside,
          (SELECT COALESCE(SUM(capacity), 0) FROM inventory_items WHERE occurrence_id = $1 AND active = 1) AS capacity,
          (SELECT COALESCE(SUM(sold), 0) FROM inventory_items WHERE occurrence_id = $1) AS sold`, [occurrenceId]);
      return { admitted: Number(row?.admitted ?? 0), inside: Number(row?.inside ?? 0), capacity: Number(row?.capacity ?? 0), sold: Number(row?.sold ?? 0) };
    },
    async unsynced(limit: number) {
      return (await rows<StoredCheckin>(`SELECT ${CHECKIN_COLUMNS} FROM checkins WHERE synced = 0 ORDER BY seq LIMIT $1`, [limit])).map(toCheckin);
    },
    async markSynced(ids: readonly string[]): Promise<number> {
      return (await q.query('UPDATE checkins SET synced = 1 WHERE id = ANY($1::text[]) AND synced = 0', [[...ids]])).rowCount ?? 0;
    },
    async waiting(): Promise<number> {
      const [row] = await rows<{ n: string }>('SELECT COUNT(*) AS n FROM checkins WHERE synced = 0', []);
      return Number(row?.n ?? 0);
    },
  };
}
