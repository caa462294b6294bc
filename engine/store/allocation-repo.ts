import type { Stock } from '../domain/allocations';
import type { Db } from './db';

/**
 * At a hub: the places granted to each terminal (table `allocations`) and their sum per item
 * (inventory_items.allocated), kept equal statement by statement. Every method runs in the caller's transaction.
 */

export interface AllocationRow {
  terminalId: string;
  occurrenceId: string;
  inventoryItemId: string;
  quantity: number;
  expiresAt: number;
}

export interface ItemStock extends Stock {
  seating: 'general' | 'assigned';
  active: number;
}

const COLUMNS = 'terminal_id AS terminalId, occurrence_id AS occurrenceId, inventory_item_id AS inventoryItemId, quantity, expires_at AS expiresAt';

export function createAllocationRepo(db: Db) {
  // Lapsed allocations go back on sale: one set-based pass, cheap thanks to the partial index on live rows.
  const releaseLapsedStock = db.prepare<{ now: number }>(`
    UPDATE inventory_items AS i SET allocated = i.allocated - x.q
    FROM (SELECT occurrence_id AS occurrenceId, inventory_item_id AS itemId, SUM(quantity) AS q
          FROM allocations WHERE quantity > 0 AND expires_at <= :now GROUP BY 1, 2) AS x
    WHERE i.occurrence_id = x.occurrenceId AND i.id = x.itemId`);
  const zeroLapsed = db.prepare<{ now: number }>('UPDATE allocations SET quantity = 0 WHERE quantity > 0 AND expires_at <= :now');
  // one look into the partial index first: the passes above run before every cart
  const anyLapsed = db.prepare<[number], number>('SELECT 1 FROM allocations WHERE quantity > 0 AND expires_at <= ? LIMIT 1').pluck();
  const stockOf = db.prepare<[string, string], ItemStock>(`
    SELECT i.capacity, i.held, i.sold, i.allocated, a.seating, i.active * a.active AS active
    FROM inventory_items i JOIN areas a ON a.occurrence_id = i.occurrence_id AND a.id = i.area_id
    WHERE i.occurrence_id = ? AND i.id = ?`);
  const one = db.prepare<[string, string, string], AllocationRow>(
    `SELECT ${COLUMNS} FROM allocations WHERE terminal_id = ? AND occurrence_id = ? AND inventory_item_id = ?`);
  const ofTerminal = db.prepare<[string], AllocationRow>(
    `SELECT ${COLUMNS} FROM allocations WHERE terminal_id = ? AND quantity > 0 ORDER BY occurrence_id, inventory_item_id`);
  const upsert = db.prepare<[string, string, string, number, number]>(`
    INSERT INTO allocations (terminal_id, occurrence_id, inventory_item_id, quantity, expires_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (terminal_id, occurrence_id, inventory_item_id) DO UPDATE SET quantity = excluded.quantity, expires_at = excluded.expires_at`);
  const moveAllocated = db.prepare<[number, string, string]>('UPDATE inventory_items SET allocated = allocated + ? WHERE occurrence_id = ? AND id = ?');
  const renew = db.prepare<[number, string, number]>('UPDATE allocations SET expires_at = ? WHERE terminal_id = ? AND quantity > 0 AND expires_at > ?');
  const requestByKey = db.prepare<[string, string], { bodyHash: string; answer: string }>(
    'SELECT body_hash AS bodyHash, answer FROM allocation_requests WHERE terminal_id = ? AND key = ?');
  const keepRequest = db.prepare<[string, string, string, string, number]>(
    'INSERT INTO allocation_requests (terminal_id, key, body_hash, answer, created_at) VALUES (?, ?, ?, ?, ?)');
  const purgeRequests = db.prepare<[number]>('DELETE FROM allocation_requests WHERE created_at <= ?');

  return {
    /** Every allocation whose deadline has passed gives its places back. */
    lapse(now: number): void {
      if (anyLapsed.get(now) === undefined) return;
      releaseLapsedStock.run({ now });
      zeroLapsed.run({ now });
    },
    stock: (occurrenceId: string, itemId: string): ItemStock | undefined => stockOf.get(occurrenceId, itemId),
    get: (terminalId: string, occurrenceId: string, itemId: string): AllocationRow | undefined => one.get(terminalId, occurrenceId, itemId),
    /** A terminal's live allocations. */
    ofTerminal: (terminalId: string): AllocationRow[] => ofTerminal.all(terminalId),
    /** Sets a terminal's allocation of an item to `quantity`, moving the difference in the item's `allocated`. */
    set(row: AllocationRow, previous: number): void {
      upsert.run(row.terminalId, row.occurrenceId, row.inventoryItemId, row.quantity, row.expiresAt);
      if (row.quantity !== previous) moveAllocated.run(row.quantity - previous, row.occurrenceId, row.inventoryItemId);
    },
    /** A terminal's cart or order at the hub uses up `count` places of its allocation (the cart then holds them). */
    consume(terminalId: string, occurrenceId: string, itemId: string, count: number): void {
      if (count <= 0) return;
      const row = one.get(terminalId, occurrenceId, itemId);
      if (!row || row.quantity < count) throw new Error(`allocation of ${itemId} for ${terminalId} is short of ${count}`);
      upsert.run(terminalId, occurrenceId, itemId, row.quantity - count, row.expiresAt);
      moveAllocated.run(-count, occurrenceId, itemId);
    },
    /** The terminal is alive: its live allocations run until `until`. */
    renew: (terminalId: string, until: number, now: number): void => void renew.run(until, terminalId, now),
    request: (terminalId: string, key: string) => requestByKey.get(terminalId, key),
    keepRequest: (terminalId: string, key: string, bodyHash: string, answer: unknown, now: number): void =>
      void keepRequest.run(terminalId, key, bodyHash, JSON.stringify(answer), now),
    purgeRequests: (olderThan: number): void => void purgeRequests.run(olderThan),
  };
}

export type AllocationRepo = ReturnType<typeof createAllocationRepo>;
