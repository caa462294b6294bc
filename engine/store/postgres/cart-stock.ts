/**
 * PostgreSQL twin of store/cart-stock.ts: one statement that moves the stock a cart's lines name between the
 * `held` and `sold` counters of inventory_items (`held = i.held - x.q` releases a hold, `held = i.held - x.q,
 * sold = i.sold + x.q` sells it, `sold = i.sold - x.q` puts it back on sale). The cart id is its parameter $1.
 *
 * Concurrency: the rows are locked first, in primary-key order (`locked`, byte order as JavaScript sorts and
 * as every other hold and release here locks), so two transactions moving overlapping items never deadlock;
 * the UPDATE then reads each row's newest committed version (READ COMMITTED re-reads a row it waited for), so no
 * concurrent change is lost. The counters' CHECKs (held ≥ 0, sold ≥ 0) refuse a move below zero.
 */
export function pgCartStockUpdate(set: string): string {
  return `
    WITH x AS (
      SELECT c.occurrence_id, ci.inventory_item_id AS item_id, SUM(ci.quantity) AS q
      FROM carts c JOIN cart_items ci ON ci.cart_id = c.id
      WHERE c.id = $1 AND ci.inventory_item_id IS NOT NULL GROUP BY 1, 2),
    locked AS (
      SELECT i.occurrence_id, i.id, x.q FROM inventory_items i JOIN x ON i.occurrence_id = x.occurrence_id AND i.id = x.item_id
      ORDER BY i.occurrence_id COLLATE "C", i.id COLLATE "C" FOR UPDATE OF i)
    UPDATE inventory_items AS i SET ${set}
    FROM locked AS x WHERE i.occurrence_id = x.occurrence_id AND i.id = x.id`;
}

/** byte order of two ASCII/UTF-16 keys, the order of `COLLATE "C"` for the ids Kassa makes */
export const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
