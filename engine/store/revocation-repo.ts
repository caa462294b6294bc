import type { Db } from './db';

/**
 * Revoked tickets (issue #26, contract §15): the tickets of orders cancelled here (written by the cancellation's
 * transaction) and those pulled from a hub (insert-or-ignore by code: a gate's own seq). Gates pull them in seq order.
 */
export interface RevocationRow { seq: number; code: string; occurrenceId: string; at: string }
export type NewRevocation = Omit<RevocationRow, 'seq'>;

export function createRevocationRepo(db: Db) {
  const insert = db.prepare<[string, string, string]>('INSERT OR IGNORE INTO ticket_revocations (code, occurrence_id, at) VALUES (?, ?, ?)');
  const revokeOrder = db.prepare<[string, string]>(`INSERT OR IGNORE INTO ticket_revocations (code, occurrence_id, at)
    SELECT t.code, c.occurrence_id, ? FROM tickets t JOIN orders o ON o.id = t.order_id JOIN carts c ON c.id = o.cart_id
    WHERE t.order_id = ? ORDER BY t.position`);
  const page = db.prepare<[number, number], RevocationRow>(`SELECT seq, code, occurrence_id AS occurrenceId, at FROM ticket_revocations
    WHERE seq > ? ORDER BY seq LIMIT ?`);
  const has = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM ticket_revocations WHERE code = ?');

  return {
    /** every ticket of an order, revoked at `at` (ISO 8601); in the cancellation's transaction */
    revokeOrder: (orderId: string, at: string): number => revokeOrder.run(at, orderId).changes,
    /** revocations learned elsewhere (a hub's list): a code revoked already is left as it is */
    add(rows: readonly NewRevocation[]): number {
      let added = 0;
      for (const { code, occurrenceId, at } of rows) added += insert.run(code, occurrenceId, at).changes;
      return added;
    },
    /** revocations after seq `after`, oldest first */
    page: (after: number, limit: number): RevocationRow[] => page.all(after, limit),
    /** whether a ticket code is revoked */
    revoked: (code: string): boolean => has.get(code) !== undefined,
  };
}

export type RevocationRepo = ReturnType<typeof createRevocationRepo>;
