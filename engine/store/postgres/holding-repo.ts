import type { Async } from '../port-types';
import type { HoldingRepo, HoldingRow } from '../holding-repo';
import type { Queryable } from './queryable';

/**
 * At a terminal: the places it holds from its hub (store/holding-repo.ts), on PostgreSQL. Each write is ONE
 * statement, atomic on its own: SQLite's "insert the row if missing, then update it" becomes
 * `INSERT … ON CONFLICT (pk) DO UPDATE`, which either inserts or updates the row under its lock (a concurrent
 * insert of the same key waits, then takes the update path). `add` moves in_hand relative to the stored value
 * (GREATEST(in_hand + delta, 0), SQLite's scalar MAX), so two concurrent adds both count.
 */

const SELECT = `
  SELECT h.occurrence_id AS "occurrenceId", h.inventory_item_id AS "inventoryItemId", h.in_hand AS "inHand",
         COALESCE(i.held, 0) AS "heldLocally", h.lapses_at AS "lapsesAt", h.venue_available AS "venueAvailable",
         h.venue_seen_at AS "venueSeenAt", COALESCE(a.seating, 'general') AS seating
  FROM holdings h
  LEFT JOIN inventory_items i ON i.occurrence_id = h.occurrence_id AND i.id = h.inventory_item_id
  LEFT JOIN areas a ON a.occurrence_id = i.occurrence_id AND a.id = i.area_id`;

export function createPgHoldingRepo(q: Queryable): Async<HoldingRepo> {
  const holdings = async (sql: string, values: unknown[] = []) => (await q.query<HoldingRow>(sql, values)).rows;
  const run = async (sql: string, values: unknown[]) => {
    await q.query(sql, values);
  };
  return {
    get: async (occurrenceId, itemId) => (await holdings(`${SELECT} WHERE h.occurrence_id = $1 AND h.inventory_item_id = $2`, [occurrenceId, itemId]))[0],
    // COLLATE "C": byte order, as SQLite sorts TEXT, whatever the database's locale
    all: () => holdings(`${SELECT} ORDER BY h.occurrence_id COLLATE "C", h.inventory_item_id COLLATE "C"`),
    ofOccurrence: (occurrenceId) => holdings(`${SELECT} WHERE h.occurrence_id = $1 ORDER BY h.inventory_item_id COLLATE "C"`, [occurrenceId]),
    heldLocally: async (occurrenceId, itemId) =>
      (await q.query<{ held: number }>('SELECT held FROM inventory_items WHERE occurrence_id = $1 AND id = $2', [occurrenceId, itemId])).rows[0]?.held ?? 0,
    add: (occurrenceId, itemId, delta) => run(`INSERT INTO holdings (occurrence_id, inventory_item_id, in_hand) VALUES ($1, $2, GREATEST($3::integer, 0))
      ON CONFLICT (occurrence_id, inventory_item_id) DO UPDATE SET in_hand = GREATEST(holdings.in_hand + $3::integer, 0)`, [occurrenceId, itemId, delta]),
    set: (occurrenceId, itemId, inHand) => run(`INSERT INTO holdings (occurrence_id, inventory_item_id, in_hand) VALUES ($1, $2, $3)
      ON CONFLICT (occurrence_id, inventory_item_id) DO UPDATE SET in_hand = excluded.in_hand`, [occurrenceId, itemId, inHand]),
    venue: (occurrenceId, itemId, available, now) => run(`INSERT INTO holdings (occurrence_id, inventory_item_id, venue_available, venue_seen_at) VALUES ($1, $2, $3, $4)
      ON CONFLICT (occurrence_id, inventory_item_id) DO UPDATE SET venue_available = excluded.venue_available, venue_seen_at = excluded.venue_seen_at`,
    [occurrenceId, itemId, available, now]),
    renew: (lapsesAt) => run('UPDATE holdings SET lapses_at = $1', [lapsesAt]),
    syncProgress: async () => (await q.query<{ lastId: number; pendingOrders: number }>(
      `SELECT COALESCE(MAX(id), 0)::bigint AS "lastId", COUNT(*) FILTER (WHERE kind = 'order' AND state = 'pending')::integer AS "pendingOrders" FROM outbox`,
    )).rows[0] ?? { lastId: 0, pendingOrders: 0 },
    linkUpstreamCart: (localCartId, upstreamCartId, at) => run(`INSERT INTO upstream_holds (local_cart_id, upstream_cart_id, created_at) VALUES ($1, $2, $3)
      ON CONFLICT (local_cart_id) DO UPDATE SET upstream_cart_id = excluded.upstream_cart_id, created_at = excluded.created_at`, [localCartId, upstreamCartId, at]),
    upstreamCartOf: async (localCartId) => (await q.query<{ upstreamCartId: string | null }>(
      'SELECT upstream_cart_id AS "upstreamCartId" FROM upstream_holds WHERE local_cart_id = $1', [localCartId])).rows[0]?.upstreamCartId ?? null,
    staleUpstreamCarts: async (limit) => (await q.query<{ localCartId: string; upstreamCartId: string }>(
      `SELECT uh.local_cart_id AS "localCartId", uh.upstream_cart_id AS "upstreamCartId" FROM upstream_holds uh JOIN carts c ON c.id = uh.local_cart_id
       WHERE uh.upstream_cart_id IS NOT NULL AND c.status IN ('deleted', 'expired', 'released') ORDER BY uh.created_at LIMIT $1`, [limit])).rows,
    forgetUpstreamCart: (localCartId) => run('DELETE FROM upstream_holds WHERE local_cart_id = $1', [localCartId]),
  };
}
