import type { Async } from '../port-types';
import type { RevocationRepo, RevocationRow } from '../revocation-repo';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/revocation-repo.ts: revoked tickets, insert-or-ignore by code, paged by seq.
 *
 * Gates page by `seq > cursor`, so seqs must become visible in their order. An identity value is handed out at the
 * INSERT, not at COMMIT: two cancellations at once (two processes, or two pool clients of one) could commit out of
 * seq order, and a gate that read the higher seq first would skip the lower one for good — a cancelled ticket
 * admitted offline. So a writer first takes the revocation list's advisory lock, held until its COMMIT: revocations
 * are written one transaction at a time, each seq after every committed one. (cancel-order.ts takes it after the
 * order's stock went back on sale — the inventory rows' locks — and before the journal head; nothing else takes it.)
 */

const WRITE_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('kassa\nticket-revocations', 0))";

const INSERT = 'INSERT INTO ticket_revocations (code, occurrence_id, at) VALUES ($1, $2, $3) ON CONFLICT (code) DO NOTHING';

export function createPgRevocationRepo(q: Queryable): Async<RevocationRepo> {
  return {
    async revokeOrder(orderId, at) {
      await q.query(WRITE_LOCK);
      return (await q.query(`INSERT INTO ticket_revocations (code, occurrence_id, at)
          SELECT t.code, c.occurrence_id, $1 FROM tickets t JOIN orders o ON o.id = t.order_id JOIN carts c ON c.id = o.cart_id
          WHERE t.order_id = $2 ORDER BY t.position
        ON CONFLICT (code) DO NOTHING`, [at, orderId])).rowCount ?? 0;
    },
    async add(rows) {
      if (rows.length === 0) return 0;
      await q.query(WRITE_LOCK);
      let added = 0;
      for (const { code, occurrenceId, at } of rows) added += (await q.query(INSERT, [code, occurrenceId, at])).rowCount ?? 0;
      return added;
    },
    page: async (after, limit) => (await q.query<RevocationRow & Record<string, unknown>>(`SELECT seq, code, occurrence_id AS "occurrenceId", at
      FROM ticket_revocations WHERE seq > $1 ORDER BY seq LIMIT $2`, [after, limit])).rows,
    revoked: async (code) => (await q.query('SELECT 1 FROM ticket_revocations WHERE code = $1', [code])).rows.length > 0,
  };
}
