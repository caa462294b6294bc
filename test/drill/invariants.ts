import Database from 'better-sqlite3';
import { join } from 'node:path';

/**
 * The SQL invariants the crash drill checks on a terminal's database after every restart:
 *
 * - charge = order: every charge the provider holds is one captured attempt of one confirmed order, or a
 *   refunded attempt (of a cancelled order, or of a charge no order could be made of); nothing left open
 * - one refund per cancelled payment: a cancelled order's attempt is refunded, and the provider refunded it
 * - stock = carts + orders: every item's `held` is what held carts hold, its `sold` what confirmed orders hold
 * - no seat twice: held + sold never above capacity; an assigned seat in one confirmed order at most
 * - every order and cancellation has its sync outbox entry; `PRAGMA integrity_check` is ok
 * - every 201 (order) and 200 (cancel) a client saw is still there after the restart
 */

export interface Seen {
  readonly orders: Set<string>;
  readonly cancelled: Set<string>;
}

export function checkInvariants(dataDir: string, seen: Seen): string[] {
  const db = new Database(join(dataDir, 'kassa.sqlite'), { readonly: true, fileMustExist: true });
  const problems: string[] = [];
  const rows = (sql: string) => db.prepare<[], Record<string, unknown>>(sql).all();
  const expectNone = (what: string, sql: string) => {
    const found = rows(sql);
    if (found.length > 0) problems.push(`${what}: ${JSON.stringify(found.slice(0, 3))}`);
  };
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') problems.push(`integrity_check: ${String(integrity)}`);

    // charge = order
    expectNone('attempts left open after the restart', "SELECT id, state FROM payment_attempts WHERE state IN ('pending', 'refunding')");
    expectNone('a provider charge without its attempt', 'SELECT reference FROM psp_charges c WHERE NOT EXISTS (SELECT 1 FROM payment_attempts p WHERE p.id = c.reference)');
    expectNone('an approved charge that is not one confirmed order', `SELECT c.reference, p.state, o.status FROM psp_charges c
      JOIN payment_attempts p ON p.id = c.reference LEFT JOIN orders o ON o.id = p.order_id
      WHERE c.state = 'approved' AND (p.state <> 'captured' OR o.status IS NOT 'confirmed')`);
    expectNone('a captured card attempt without a charge', `SELECT p.id FROM payment_attempts p
      WHERE p.method = 'card' AND p.state IN ('captured', 'refunded') AND NOT EXISTS (SELECT 1 FROM psp_charges c WHERE c.reference = p.id)`);
    expectNone('an order without exactly one captured or refunded attempt', `SELECT o.id, COUNT(p.id) AS n FROM orders o
      LEFT JOIN payment_attempts p ON p.order_id = o.id AND p.state IN ('captured', 'refunded') GROUP BY o.id HAVING n <> 1`);
    // one refund per cancelled payment
    expectNone('a cancelled order whose payment is not refunded', `SELECT o.id, p.state, c.state AS charge FROM orders o
      JOIN payment_attempts p ON p.order_id = o.id LEFT JOIN psp_charges c ON c.reference = p.id
      WHERE o.status = 'cancelled' AND (p.state <> 'refunded' OR (p.method = 'card' AND c.state IS NOT 'refunded')
        OR p.refunded_at IS NULL)`); // the order's payment is derived from its attempt (migration 0018): refunded, with its time
    expectNone('a refund without a cancelled order or an orphaned charge', `SELECT c.reference FROM psp_charges c
      JOIN payment_attempts p ON p.id = c.reference LEFT JOIN orders o ON o.id = p.order_id
      WHERE c.state = 'refunded' AND (p.state <> 'refunded' OR (o.id IS NOT NULL AND o.status <> 'cancelled'))`);
    // stock = carts + orders, no seat twice
    expectNone('held stock that held carts do not account for', `SELECT i.occurrence_id, i.id, i.held, COALESCE(h.q, 0) AS carts FROM inventory_items i
      LEFT JOIN (SELECT c.occurrence_id AS occ, ci.inventory_item_id AS item, SUM(ci.quantity) AS q FROM carts c JOIN cart_items ci ON ci.cart_id = c.id
                 WHERE c.status = 'held' AND ci.inventory_item_id IS NOT NULL GROUP BY 1, 2) h ON h.occ = i.occurrence_id AND h.item = i.id
      WHERE i.held <> COALESCE(h.q, 0)`);
    expectNone('sold stock that confirmed orders do not account for', `SELECT i.occurrence_id, i.id, i.sold, COALESCE(s.q, 0) AS orders FROM inventory_items i
      LEFT JOIN (SELECT c.occurrence_id AS occ, ci.inventory_item_id AS item, SUM(ci.quantity) AS q FROM orders o JOIN carts c ON c.id = o.cart_id
                 JOIN cart_items ci ON ci.cart_id = c.id WHERE o.status = 'confirmed' AND ci.inventory_item_id IS NOT NULL GROUP BY 1, 2) s
        ON s.occ = i.occurrence_id AND s.item = i.id
      WHERE i.sold <> COALESCE(s.q, 0)`);
    expectNone('an item over its capacity', 'SELECT occurrence_id, id, held, sold, capacity FROM inventory_items WHERE held < 0 OR sold < 0 OR held + sold > capacity');
    expectNone('a seat in two confirmed orders', `SELECT c.occurrence_id, ci.inventory_item_id, COUNT(*) AS n FROM orders o JOIN carts c ON c.id = o.cart_id
      JOIN cart_items ci ON ci.cart_id = c.id JOIN inventory_items i ON i.occurrence_id = c.occurrence_id AND i.id = ci.inventory_item_id
      WHERE o.status = 'confirmed' AND i.capacity = 1 GROUP BY 1, 2 HAVING n > 1`);
    expectNone('an order of a cart not marked ordered', "SELECT o.id FROM orders o JOIN carts c ON c.id = o.cart_id WHERE c.status <> 'ordered' OR c.order_id <> o.id");
    // sync outbox
    expectNone('an order without its outbox entry', "SELECT o.id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM outbox x WHERE x.order_id = o.id AND x.kind = 'order')");
    expectNone('a cancellation without its outbox entry', "SELECT o.id FROM orders o WHERE o.status = 'cancelled' AND NOT EXISTS (SELECT 1 FROM outbox x WHERE x.order_id = o.id AND x.kind = 'cancel')");
    // every answer a client saw
    const orders = new Map(rows('SELECT id, status FROM orders').map((row) => [String(row.id), String(row.status)]));
    const lost = [...seen.orders].filter((id) => !orders.has(id));
    if (lost.length > 0) problems.push(`orders answered 201 but gone: ${lost.slice(0, 3).join(', ')}`);
    const uncancelled = [...seen.cancelled].filter((id) => orders.get(id) !== 'cancelled');
    if (uncancelled.length > 0) problems.push(`cancellations answered 200 but undone: ${uncancelled.slice(0, 3).join(', ')}`);
  } finally {
    db.close();
  }
  return problems;
}
