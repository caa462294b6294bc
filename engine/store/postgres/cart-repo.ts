import { EngineError } from '../../domain/errors';
import type { CartLine } from '../../domain/pricing';
import { lineParams, toLine, type CartRepo, type CartRow, type LineRow } from '../cart-repo';
import type { Async } from '../port-types';
import { byKey, pgCartStockUpdate } from './cart-stock';
import type { Queryable } from './queryable';

/** PostgreSQL twin of store/cart-repo.ts: carts, their lines and vouchers, and the stock they hold. Runs in the caller's transaction. */

const CART_COLUMNS = `id, occurrence_id AS "occurrenceId", event_id AS "eventId", location_id AS "locationId", kind, currency, status,
  created_at AS "createdAt", expires_at AS "expiresAt", order_id AS "orderId"`;

const RELEASE_HELD = pgCartStockUpdate('held = i.held - x.q');

const INSERT_LINE = `INSERT INTO cart_items (id, cart_id, position, type, name, quantity, unit_price, inventory_item_id, price_option_id, extra_id)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

// the items released by the carts claimed in $1, locked in primary-key order before their counters change
const RELEASE_CARTS = `
  WITH x AS (
    SELECT c.occurrence_id, ci.inventory_item_id AS item_id, SUM(ci.quantity) AS q
    FROM carts c JOIN cart_items ci ON ci.cart_id = c.id
    WHERE c.id = ANY($1::text[]) AND ci.inventory_item_id IS NOT NULL GROUP BY 1, 2),
  locked AS (
    SELECT i.occurrence_id, i.id, x.q FROM inventory_items i JOIN x ON i.occurrence_id = x.occurrence_id AND i.id = x.item_id
    ORDER BY i.occurrence_id COLLATE "C", i.id COLLATE "C" FOR UPDATE OF i)
  UPDATE inventory_items AS i SET held = i.held - x.q FROM locked AS x WHERE i.occurrence_id = x.occurrence_id AND i.id = x.id`;

function insertParams(cartId: string, position: number, line: CartLine): unknown[] {
  const p = lineParams(cartId, position, line);
  return [p.id, p.cartId, p.position, p.type, p.name, p.quantity, p.baseUnitPrice, p.inventoryItemId, p.priceOptionId, p.extraId];
}

export function createPgCartRepo(q: Queryable): Async<CartRepo> {
  /**
   * Holds `quantity` places of one item only while they are there: the check is in the UPDATE's WHERE, which
   * READ COMMITTED re-evaluates on the newest version of the row after waiting for its lock, so two processes
   * never take the same last place. Refused: INVENTORY_EXHAUSTED (the caller's transaction rolls back).
   */
  async function hold(cart: Omit<CartRow, 'status' | 'orderId'>, lines: readonly CartLine[], itemId: string, quantity: number): Promise<void> {
    const held = await q.query(`UPDATE inventory_items SET held = held + $1
      WHERE occurrence_id = $2 AND id = $3 AND held + sold + allocated + $1 <= capacity`, [quantity, cart.occurrenceId, itemId]);
    if (held.rowCount === 1) return;
    const { rows } = await q.query<{ available: number }>(`SELECT GREATEST(capacity - held - sold - allocated, 0) AS available
      FROM inventory_items WHERE occurrence_id = $1 AND id = $2`, [cart.occurrenceId, itemId]);
    const index = lines.findIndex((line) => line.inventoryItemId === itemId);
    throw new EngineError('INVENTORY_EXHAUSTED', {
      param: `items[${Math.max(index, 0)}].quantity`,
      details: { inventoryItemId: itemId, availableQuantity: rows[0]?.available ?? 0, requestedQuantity: quantity },
    });
  }

  return {
    /**
     * Expired carts go back on sale. Safe from several processes at once: the carts are claimed with
     * FOR UPDATE SKIP LOCKED (a cart another transaction holds — its owner's request, another sweeper — is left
     * for it or the next pass); the claim is then re-checked by a second statement, whose fresh snapshot sees
     * every payment attempt committed before the lock was ours, so a cart whose payment is under way keeps its
     * stock; only carts this UPDATE moved from `held` release stock, so a cart is released once.
     */
    async releaseExpired(now: number): Promise<void> {
      const any = await q.query("SELECT 1 FROM carts WHERE status = 'held' AND expires_at <= $1 LIMIT 1", [now]);
      if (any.rows.length === 0) return;
      // (the payment test here only spares a paying cart the lock; the UPDATE below is what decides)
      const candidates = await q.query<{ id: string }>(`SELECT id FROM carts WHERE status = 'held' AND expires_at <= $1
          AND NOT EXISTS (SELECT 1 FROM payment_attempts p WHERE p.cart_id = carts.id AND p.state = 'pending')
        ORDER BY id COLLATE "C" FOR UPDATE SKIP LOCKED`, [now]);
      if (candidates.rows.length === 0) return;
      const expired = await q.query<{ id: string }>(`UPDATE carts SET status = 'expired'
        WHERE id = ANY($1::text[]) AND status = 'held' AND expires_at <= $2
          AND NOT EXISTS (SELECT 1 FROM payment_attempts p WHERE p.cart_id = carts.id AND p.state = 'pending')
        RETURNING id`, [candidates.rows.map((row) => row.id), now]);
      if (expired.rows.length > 0) await q.query(RELEASE_CARTS, [expired.rows.map((row) => row.id)]);
    },
    /**
     * Ends a held cart's hold: its stock goes back on sale and it answers as `status` from now on. Only a cart
     * still `held` is changed (the conditional UPDATE is the claim), so a release racing the sweeper or another
     * release gives the stock back once; the SQLite twin relies on its caller having checked the status.
     */
    async release(cartId: string, status: 'deleted' | 'released'): Promise<void> {
      const claimed = await q.query("UPDATE carts SET status = $2 WHERE id = $1 AND status = 'held'", [cartId, status]);
      if (claimed.rowCount === 1) await q.query(RELEASE_HELD, [cartId]);
    },
    /**
     * `keyId`: the API key that makes the cart (its owner); undefined for the v1 facade. The holds are taken
     * in primary-key order (no deadlock with a release or the sweeper), each only while the places are there.
     */
    async insert(cart, lines, holds, keyId) {
      await q.query(`INSERT INTO carts (id, occurrence_id, event_id, location_id, kind, currency, status, created_at, expires_at, owner)
        VALUES ($1, $2, $3, $4, $5, $6, 'held', $7, $8, (SELECT COALESCE(owner, id) FROM api_keys WHERE id = $9))`,
      [cart.id, cart.occurrenceId, cart.eventId, cart.locationId, cart.kind, cart.currency, cart.createdAt, cart.expiresAt, keyId ?? null]);
      for (const [position, line] of lines.entries()) await q.query(INSERT_LINE, insertParams(cart.id, position, line));
      for (const itemId of [...holds.keys()].sort(byKey)) await hold(cart, lines, itemId, holds.get(itemId) ?? 0);
    },
    async addLine(cartId: string, line: CartLine): Promise<void> {
      const p = insertParams(cartId, 0, line);
      await q.query(`INSERT INTO cart_items (id, cart_id, position, type, name, quantity, unit_price, inventory_item_id, price_option_id, extra_id)
        VALUES ($1, $2, (SELECT COALESCE(MAX(position), -1) + 1 FROM cart_items WHERE cart_id = $2), $3, $4, $5, $6, $7, $8, $9)`,
      [p[0], p[1], ...p.slice(3)]);
    },
    async get(cartId: string): Promise<CartRow | undefined> {
      return (await q.query<CartRow>(`SELECT ${CART_COLUMNS} FROM carts WHERE id = $1`, [cartId])).rows[0];
    },
    /** who the cart belongs to (null: the v1 facade's, or made before ownership); undefined: no such cart */
    async owner(cartId: string): Promise<{ owner: string | null } | undefined> {
      return (await q.query<{ owner: string | null }>('SELECT owner FROM carts WHERE id = $1', [cartId])).rows[0];
    },
    async lines(cartId: string): Promise<CartLine[]> {
      const { rows } = await q.query<LineRow>(`
        SELECT ci.id, ci.type, ci.name, ci.quantity, ci.unit_price AS "baseUnitPrice", c.occurrence_id AS "occurrenceId",
               ci.inventory_item_id AS "inventoryItemId", ci.price_option_id AS "priceOptionId", ci.extra_id AS "extraId"
        FROM cart_items ci JOIN carts c ON c.id = ci.cart_id WHERE ci.cart_id = $1 ORDER BY ci.position`, [cartId]);
      return rows.map(toLine);
    },
    async setQuantity(cartId: string, itemId: string, quantity: number): Promise<void> {
      await q.query('UPDATE cart_items SET quantity = $1 WHERE id = $2 AND cart_id = $3', [quantity, itemId, cartId]);
    },
    async deleteLine(cartId: string, itemId: string): Promise<void> {
      await q.query('DELETE FROM cart_items WHERE id = $1 AND cart_id = $2', [itemId, cartId]);
    },
    async setCurrency(cartId: string, currency: string): Promise<void> {
      await q.query('UPDATE carts SET currency = $1 WHERE id = $2', [currency, cartId]);
    },
    async voucherCodes(cartId: string): Promise<string[]> {
      const { rows } = await q.query<{ code: string }>('SELECT code FROM cart_vouchers WHERE cart_id = $1 ORDER BY position', [cartId]);
      return rows.map((row) => row.code);
    },
    /** a code already on the cart is left as it is (ON CONFLICT on the primary key: atomic) */
    async addVoucher(cartId: string, code: string): Promise<void> {
      await q.query(`INSERT INTO cart_vouchers (cart_id, code, position)
        VALUES ($1, $2, (SELECT COALESCE(MAX(position), -1) + 1 FROM cart_vouchers WHERE cart_id = $1)) ON CONFLICT DO NOTHING`, [cartId, code]);
    },
    async removeVoucher(cartId: string, code: string): Promise<void> {
      await q.query('DELETE FROM cart_vouchers WHERE cart_id = $1 AND code = $2', [cartId, code]);
    },
  };
}
