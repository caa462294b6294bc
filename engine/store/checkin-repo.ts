import type { Db } from './db';

/**
 * Check-ins at the door (issue #26, migration 0027): what a check-in reads of a ticket and its show, who is inside
 * (ticket_presence), the accepted check-ins (checkins) and a show's counts. Runs in the caller's transaction.
 */

/** A ticket this engine sold or imported, with its order's state and where it admits to. */
export interface CheckinTicketRow {
  code: string;
  orderId: string;
  status: 'confirmed' | 'cancelled';
  occurrenceId: string;
  areaId: string | null;
  area: string | null;
  /** the seat's label in an assigned-seat area */
  seat: string | null;
  /** its signed code (issue #26); null for a ticket sold before tickets were signed */
  signedCode: string | null;
}

/** A show as the catalog has it now: when it starts and its event's name. */
export interface CheckinShowRow {
  occurrenceId: string;
  startsAt: string;
  eventId: string;
  eventName: string;
}

export interface PresenceRow {
  occurrenceId: string;
  inside: boolean;
  inAt: string;
  gate: string;
}

/** An accepted check-in as stored. `synced`: the hub has it (or there is no hub). */
export interface CheckinRow {
  id: string;
  ticketCode: string;
  orderId: string;
  occurrenceId: string;
  direction: 'in' | 'out';
  gate: string;
  at: string;
  source: string | null;
  synced: boolean;
}

/** What a check-in decides on, read at once: the ticket (if sold here), whether it is revoked, and where it is. */
export interface TicketStateRow {
  ticket: CheckinTicketRow | undefined;
  revoked: boolean;
  presence: PresenceRow | undefined;
}

export interface CheckinCountsRow {
  admitted: number;
  inside: number;
  capacity: number;
  sold: number;
}

type StoredPresence = Omit<PresenceRow, 'inside'> & { inside: number };
type StoredCheckin = Omit<CheckinRow, 'synced'> & { synced: number; seq: number };

export function createCheckinRepo(db: Db) {
  const ticket = db.prepare<[string], CheckinTicketRow>(`SELECT t.code, t.signed_code AS signedCode, t.order_id AS orderId, o.status, c.occurrence_id AS occurrenceId,
      ii.area_id AS areaId, a.name AS area, CASE WHEN a.seating = 'assigned' THEN ii.label END AS seat
    FROM tickets t JOIN orders o ON o.id = t.order_id JOIN carts c ON c.id = o.cart_id
    LEFT JOIN cart_items ci ON ci.id = t.item_id
    LEFT JOIN inventory_items ii ON ii.occurrence_id = c.occurrence_id AND ii.id = ci.inventory_item_id
    LEFT JOIN areas a ON a.occurrence_id = c.occurrence_id AND a.id = ii.area_id
    WHERE t.code = ?`);
  const show = db.prepare<[string], CheckinShowRow>(`SELECT oc.id AS occurrenceId, oc.starts_at AS startsAt, e.id AS eventId, e.name AS eventName
    FROM occurrences oc JOIN events e ON e.id = oc.event_id WHERE oc.id = ?`);
  const place = db.prepare<[string, string], { area: string; seating: string }>(`SELECT a.name AS area, a.seating FROM areas a
    WHERE a.occurrence_id = ? AND a.id = ?`);
  const presence = db.prepare<[string], StoredPresence>(`SELECT occurrence_id AS occurrenceId, inside, in_at AS inAt, gate
    FROM ticket_presence WHERE ticket_code = ?`);
  const insert = db.prepare(`INSERT INTO checkins (id, ticket_code, order_id, occurrence_id, direction, gate, at, source, synced)
    VALUES (@id, @ticketCode, @orderId, @occurrenceId, @direction, @gate, @at, @source, @synced) ON CONFLICT (id) DO NOTHING`);
  const upsertPresence = db.prepare<[string, string, number, string, string]>(`INSERT INTO ticket_presence (ticket_code, occurrence_id, inside, in_at, gate)
    VALUES (?, ?, ?, ?, ?) ON CONFLICT (ticket_code) DO UPDATE SET inside = excluded.inside, in_at = excluded.in_at, gate = excluded.gate`);
  const counts = db.prepare<[string, string, string, string], CheckinCountsRow>(`SELECT
      (SELECT COUNT(*) FROM ticket_presence WHERE occurrence_id = ?) AS admitted,
      (SELECT COUNT(*) FROM ticket_presence WHERE occurrence_id = ? AND inside = 1) AS inside,
      (SELECT COALESCE(SUM(capacity), 0) FROM inventory_items WHERE occurrence_id = ? AND active = 1) AS capacity,
      (SELECT COALESCE(SUM(sold), 0) FROM inventory_items WHERE occurrence_id = ?) AS sold`);
  const unsynced = db.prepare<[number], StoredCheckin>(`SELECT seq, id, ticket_code AS ticketCode, order_id AS orderId, occurrence_id AS occurrenceId,
      direction, gate, at, source, synced FROM checkins WHERE synced = 0 ORDER BY seq LIMIT ?`);
  const markSynced = db.prepare<[string]>('UPDATE checkins SET synced = 1 WHERE id IN (SELECT value FROM json_each(?)) AND synced = 0');
  const waiting = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM checkins WHERE synced = 0');
  const byId = db.prepare<[string], StoredCheckin>(`SELECT seq, id, ticket_code AS ticketCode, order_id AS orderId, occurrence_id AS occurrenceId,
      direction, gate, at, source, synced FROM checkins WHERE id = ?`);

  const history = db.prepare<[string], StoredCheckin>(`SELECT seq, id, ticket_code AS ticketCode, order_id AS orderId, occurrence_id AS occurrenceId,
      direction, gate, at, source, synced FROM checkins WHERE ticket_code = ? ORDER BY at, seq`);
  const revoked = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM ticket_revocations WHERE code = ?');
  const presenceOf = (code: string): PresenceRow | undefined => {
    const row = presence.get(code);
    return row && { ...row, inside: row.inside === 1 };
  };

  const toCheckin = (row: StoredCheckin): CheckinRow & { seq: number } => ({ ...row, synced: row.synced === 1 });

  return {
    /** the ticket with this (normalized) code, its order's state and its place; undefined: not sold here */
    ticket: (code: string): CheckinTicketRow | undefined => ticket.get(code),
    /** the show's start and its event's name; undefined: no such occurrence */
    show: (occurrenceId: string): CheckinShowRow | undefined => show.get(occurrenceId),
    /** an area's name and whether its seats are assigned; undefined: no such area */
    area: (occurrenceId: string, areaId: string): { area: string; assigned: boolean } | undefined => {
      const row = place.get(occurrenceId, areaId);
      return row && { area: row.area, assigned: row.seating === 'assigned' };
    },
    /** where the ticket is now; undefined: never admitted */
    presence: presenceOf,
    /** the ticket, its revocation and its presence: what a check-in decides on (one round trip on PostgreSQL) */
    state: (code: string): TicketStateRow => ({ ticket: ticket.get(code), revoked: revoked.get(code) !== undefined, presence: presenceOf(code) }),
    /**
     * Stores an accepted check-in and where the ticket is after it. Idempotent by the check-in's id: a second
     * record of one id writes nothing and answers false.
     */
    record(row: CheckinRow, after: Omit<PresenceRow, 'occurrenceId'>): boolean {
      const inserted = insert.run({ ...row, synced: row.synced ? 1 : 0 }).changes === 1;
      if (inserted) upsertPresence.run(row.ticketCode, row.occurrenceId, after.inside ? 1 : 0, after.inAt, after.gate);
      return inserted;
    },
    /** a ticket's check-ins in the order they happened (time, then the order recorded) */
    history: (code: string) => history.all(code).map(toCheckin),
    /** sets where a ticket is (a check-in recorded out of time order changed what its latest one is) */
    setPresence(code: string, presence: PresenceRow): void {
      upsertPresence.run(code, presence.occurrenceId, presence.inside ? 1 : 0, presence.inAt, presence.gate);
    },
    /** a check-in by its id (the hub's import asks whether it has one) */
    byId: (id: string) => {
      const row = byId.get(id);
      return row && toCheckin(row);
    },
    /** a show's counts (contract §15) */
    counts: (occurrenceId: string): CheckinCountsRow => counts.get(occurrenceId, occurrenceId, occurrenceId, occurrenceId) ?? { admitted: 0, inside: 0, capacity: 0, sold: 0 },
    /** offline check-ins not yet at the hub, oldest first */
    unsynced: (limit: number) => unsynced.all(limit).map(toCheckin),
    /** the hub has these check-ins now */
    markSynced: (ids: readonly string[]): number => markSynced.run(JSON.stringify(ids)).changes,
    /** how many offline check-ins wait for the hub */
    waiting: (): number => waiting.get()?.n ?? 0,
  };
}

export type CheckinRepo = ReturnType<typeof createCheckinRepo>;
