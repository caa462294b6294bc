/**
 * One statement that moves the stock a cart's lines name between the `held` and `sold` counters of
 * inventory_items: `held - q` releases a hold, `held - q, sold + q` sells it, `sold - q` puts it back on sale.
 * The cart id is its one parameter.
 */
export function cartStockUpdate(set: string): string {
  return `
    UPDATE inventory_items AS i SET ${set}
    FROM (SELECT c.occurrence_id AS occurrenceId, ci.inventory_item_id AS itemId, SUM(ci.quantity) AS q
          FROM carts c JOIN cart_items ci ON ci.cart_id = c.id
          WHERE c.id = ? AND ci.inventory_item_id IS NOT NULL GROUP BY 1, 2) AS x
    WHERE i.occurrence_id = x.occurrenceId AND i.id = x.itemId`;
}
