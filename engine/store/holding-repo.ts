import type { Db } from './db';

/**
 * At a terminal: the places it holds from its hub (table `holdings`), with what its own carts hold of them
 * (inventory_items.held). A sale uses up places in hand through a trigger, in the sale's own transaction.
 * Every method runs in the caller's transaction.
 */

export interface HoldingRow {
  occurrenceId: string;
  inventoryItemId: string;
  /** places granted and not sold here yet (carts included) */
  inHand: number;
  /** what this terminal's live carts hold of them */
  heldLocally: number;
  /** this terminal's clock: past it the hub may have taken them back */
  lapsesAt: number;
  venueAvailable: number | null;
  venueSeenAt: number | null;
  seating: 'general' | 'assigned';
}

const SELECT = `
  SELECT h.occurrence_id AS occurrenceId, h.inventory_item_id AS inventoryItemId, h.in_hand AS inHand,
         COALESCE(i.held, 0) AS heldLocally, h.lapses_at AS lapsesAt, h.venue_available AS venueAvailable,
         h.venue_seen_at AS venueSeenAt, COALESCE(a.seating, 'general') AS seating
  FROM holdings h
  LEFT JOIN inventory_items i ON i.occurrence_id = h.occurrence_id AND i.id = h.inventory_item_id
  LEFT JOIN areas a ON a.occurrence_id = i.occurrence_id AND a.id = i.area_id`;

export function createHoldingRepo(db: Db) {
  const one = db.prepare<[string, string], HoldingRow>(`${SELECT} WHERE h.occurrence_id = ? AND h.inventory_item_id = ?`);
  const all = db.prepare<[], HoldingRow>(`${SELECT} ORDER BY h.occurrence_id, h.inventory_item_id`);
  const ofOccurrence = db.prepare<[string], HoldingRow>(`${SELECT} WHERE h.occurrence_id = ? ORDER BY h.inventory_item_id`);
  const ensureRow = db.prepare<[string, string]>('INSERT INTO holdings (occurrence_id, inventory_item_id) VALUES (?, ?) ON CONFLICT DO NOTHING');
  const addInHand = db.prepare<[number, string, string]>('UPDATE holdings SET in_hand = MAX(in_hand + ?, 0) WHERE occurrence_id = ? AND inventory_item_id = ?');
  const setInHand = db.prepare<[number, string, string]>('UPDATE holdings SET in_hand = ? WHERE occurrence_id = ? AND inventory_item_id = ?');
  const setVenue = db.prepare<[number, number, string, string]>(
    'UPDATE holdings SET venue_available = ?, venue_seen_at = ? WHERE occurrence_id = ? AND inventory_item_id = ?');
  const renewAll = db.prepare<[number]>('UPDATE holdings SET lapses_at = ?');
  const progress = db.prepare<[], { lastId: number; pendingOrders: number }>(
    "SELECT COALESCE(MAX(id), 0) AS lastId, COALESCE(SUM(kind = 'order' AND state = 'pending'), 0) AS pendingOrders FROM outbox");
  const link = db.prepare<[string, string | null, number]>('INSERT OR REPLACE INTO upstream_holds (local_cart_id, upstream_cart_id, created_at) VALUES (?, ?, ?)');
  const linked = db.prepare<[string], { upstreamCartId: string | null }>('SELECT upstream_cart_id AS upstreamCartId FROM upstream_holds WHERE local_cart_id = ?');
  // Upstream carts of local carts that ended without becoming an order (released, deleted, timed out): they
  // still hold stock upstream until their own hold lapses there, unless this terminal releases them.
  const stale = db.prepare<[number], { localCartId: string; upstreamCartId: string }>(
    `SELECT uh.local_cart_id AS localCartId, uh.upstream_cart_id AS upstreamCartId FROM upstream_holds uh JOIN carts c ON c.id = uh.local_cart_id
     WHERE uh.upstream_cart_id IS NOT NULL AND c.status IN ('deleted', 'expired', 'released') ORDER BY uh.created_at LIMIT ?`);
  const forget = db.prepare<[string]>('DELETE FROM upstream_holds WHERE local_cart_id = ?');
  const heldOf = db.prepare<[string, string], { held: number }>('SELECT held FROM inventory_items WHERE occurrence_id = ? AND id = ?');

  return {
    get: (occurrenceId: string, itemId: string): HoldingRow | undefined => one.get(occurrenceId, itemId),
    all: (): HoldingRow[] => all.all(),
    ofOccurrence: (occurrenceId: string): HoldingRow[] => ofOccurrence.all(occurrenceId),
    heldLocally: (occurrenceId: string, itemId: string): number => heldOf.get(occurrenceId, itemId)?.held ?? 0,
    /** places granted (positive) or given back (negative) at the hub */
    add(occurrenceId: string, itemId: string, delta: number): void {
      ensureRow.run(occurrenceId, itemId);
      addInHand.run(delta, occurrenceId, itemId);
    },
    /** the hub's count, taken when no sale of this terminal is on its way there */
    set(occurrenceId: string, itemId: string, inHand: number): void {
      ensureRow.run(occurrenceId, itemId);
      setInHand.run(inHand, occurrenceId, itemId);
    },
    venue(occurrenceId: string, itemId: string, available: number, now: number): void {
      ensureRow.run(occurrenceId, itemId);
      setVenue.run(available, now, occurrenceId, itemId);
    },
    renew: (lapsesAt: number): void => void renewAll.run(lapsesAt),
    /** the newest outbox entry and the orders not yet at the hub: a sale on its way makes the hub's count differ */
    syncProgress: () => progress.get() ?? { lastId: 0, pendingOrders: 0 },
    /** a plain v3 upstream: the cart held there for this local cart */
    linkUpstreamCart: (localCartId: string, upstreamCartId: string | null, at: number): void => void link.run(localCartId, upstreamCartId, at),
    upstreamCartOf: (localCartId: string): string | null => linked.get(localCartId)?.upstreamCartId ?? null,
    /** up to `limit` upstream carts of local carts that ended without an order, oldest first */
    staleUpstreamCarts: (limit: number): { localCartId: string; upstreamCartId: string }[] => stale.all(limit),
    /** the upstream cart of that local cart is released (or gone): nothing more to do about it */
    forgetUpstreamCart: (localCartId: string): void => void forget.run(localCartId),
  };
}

export type HoldingRepo = ReturnType<typeof createHoldingRepo>;
