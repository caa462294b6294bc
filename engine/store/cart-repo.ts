import { cartStockUpdate } from './cart-stock';
import type { Db } from './db';
import type { CartLine, ItemType } from '../domain/pricing';

/** Carts, their lines and vouchers, and the stock they hold. Every method runs inside the caller's transaction. */

export type CartStatus = 'held' | 'deleted' | 'expired' | 'released' | 'ordered';

export interface CartRow {
  id: string;
  occurrenceId: string;
  eventId: string;
  locationId: string;
  kind: 'ticket' | 'giftCard';
  currency: string;
  status: CartStatus;
  createdAt: number;
  expiresAt: number;
  orderId: string | null;
}

/** a cart line as both adapters read it (their SELECTs alias the columns to these names) */
export interface LineRow {
  id: string;
  type: ItemType;
  name: string;
  quantity: number;
  baseUnitPrice: number;
  occurrenceId: string;
  inventoryItemId: string | null;
  priceOptionId: string | null;
  extraId: string | null;
}

export const toLine = (row: LineRow): CartLine => ({
  id: row.id,
  type: row.type,
  name: row.name,
  quantity: row.quantity,
  baseUnitPrice: row.baseUnitPrice,
  ...(row.type === 'extra'
    ? { extraId: row.extraId ?? undefined }
    : { occurrenceId: row.occurrenceId, inventoryItemId: row.inventoryItemId ?? undefined, priceOptionId: row.priceOptionId ?? undefined }),
});

export function createCartRepo(db: Db) {
  // Stock held by carts whose deadline has passed goes back on sale: one set-based pass, cheap when there
  // is nothing to release thanks to the partial index on held carts. A cart whose payment is under way
  // keeps its stock until the attempt settles (it still answers 410 to everything else once expired).
  const releaseExpiredStock = db.prepare<{ now: number }>(`
    UPDATE inventory_items AS i SET held = i.held - x.quantity
    FROM (SELECT c.occurrence_id AS occurrenceId, ci.inventory_item_id AS itemId, SUM(ci.quantity) AS quantity
          FROM carts c JOIN cart_items ci ON ci.cart_id = c.id
          WHERE c.status = 'held' AND c.expires_at <= :now AND ci.inventory_item_id IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM payment_attempts p WHERE p.cart_id = c.id AND p.state = 'pending')
          GROUP BY 1, 2) AS x
    WHERE i.occurrence_id = x.occurrenceId AND i.id = x.itemId`);
  const markExpired = db.prepare<{ now: number }>(`UPDATE carts SET status = 'expired' WHERE status = 'held' AND expires_at <= :now
    AND NOT EXISTS (SELECT 1 FROM payment_attempts p WHERE p.cart_id = carts.id AND p.state = 'pending')`);
  // One look into the partial index first: the two passes above cost some 30 µs even with nothing to release,
  // and they run before every cart and seat map.
  const anyExpired = db.prepare<[number], number>("SELECT 1 FROM carts WHERE status = 'held' AND expires_at <= ? LIMIT 1").pluck();
  const releaseCartStock = db.prepare<[string]>(cartStockUpdate('held = i.held - x.q'));
  // One primary-key update per held item: as an UPDATE … FROM json_each the planner walked every item of the
  // occurrence (20,000 for an arena) for each cart.
  const holdStock = db.prepare<[number, string, string]>('UPDATE inventory_items SET held = held + ? WHERE occurrence_id = ? AND id = ?');
  const setStatus = db.prepare<[CartStatus, string]>('UPDATE carts SET status = ? WHERE id = ?');
  // the owner is the key's (its id, or its role's shared name); none for the v1 facade's carts
  const insertCart = db.prepare(`INSERT INTO carts (id, occurrence_id, event_id, location_id, kind, currency, status, created_at, expires_at, owner)
    VALUES (@id, @occurrenceId, @eventId, @locationId, @kind, @currency, 'held', @createdAt, @expiresAt,
      (SELECT COALESCE(owner, id) FROM api_keys WHERE id = @keyId))`);
  const ownerOf = db.prepare<[string], { owner: string | null }>('SELECT owner FROM carts WHERE id = ?');
  const insertLine = db.prepare(`INSERT INTO cart_items (id, cart_id, position, type, name, quantity, unit_price, inventory_item_id, price_option_id, extra_id)
    VALUES (@id, @cartId, @position, @type, @name, @quantity, @baseUnitPrice, @inventoryItemId, @priceOptionId, @extraId)`);
  const cartById = db.prepare<[string], CartRow>(`
    SELECT id, occurrence_id AS occurrenceId, event_id AS eventId, location_id AS locationId, kind, currency, status,
           created_at AS createdAt, expires_at AS expiresAt, order_id AS orderId
    FROM carts WHERE id = ?`);
  const linesOf = db.prepare<[string], LineRow>(`
    SELECT ci.id, ci.type, ci.name, ci.quantity, ci.unit_price AS baseUnitPrice, c.occurrence_id AS occurrenceId,
           ci.inventory_item_id AS inventoryItemId, ci.price_option_id AS priceOptionId, ci.extra_id AS extraId
    FROM cart_items ci JOIN carts c ON c.id = ci.cart_id WHERE ci.cart_id = ? ORDER BY ci.position`);
  const nextPosition = db.prepare<[string], { next: number }>('SELECT COALESCE(MAX(position), -1) + 1 AS next FROM cart_items WHERE cart_id = ?');
  const setQuantity = db.prepare<[number, string, string]>('UPDATE cart_items SET quantity = ? WHERE id = ? AND cart_id = ?');
  const deleteLine = db.prepare<[string, string]>('DELETE FROM cart_items WHERE id = ? AND cart_id = ?');
  const setCurrency = db.prepare<[string, string]>('UPDATE carts SET currency = ? WHERE id = ?');
  const vouchersOf = db.prepare<[string], { code: string }>('SELECT code FROM cart_vouchers WHERE cart_id = ? ORDER BY position');
  const addVoucher = db.prepare<[string, string, string]>(`INSERT OR IGNORE INTO cart_vouchers (cart_id, code, position)
    VALUES (?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM cart_vouchers WHERE cart_id = ?))`);
  const removeVoucher = db.prepare<[string, string]>('DELETE FROM cart_vouchers WHERE cart_id = ? AND code = ?');

  return {
    releaseExpired(now: number): void {
      if (anyExpired.get(now) === undefined) return;
      releaseExpiredStock.run({ now });
      markExpired.run({ now });
    },
    /** Ends a held cart's hold: its stock goes back on sale and it answers as `status` from now on. */
    release(cartId: string, status: 'deleted' | 'released'): void {
      releaseCartStock.run(cartId);
      setStatus.run(status, cartId);
    },
    /** `keyId`: the API key that makes the cart (its owner); undefined for the v1 facade */
    insert(cart: Omit<CartRow, 'status' | 'orderId'>, lines: readonly CartLine[], holds: ReadonlyMap<string, number>, keyId?: string): void {
      insertCart.run({ ...cart, keyId: keyId ?? null });
      lines.forEach((line, position) => insertLine.run(lineParams(cart.id, position, line)));
      for (const [itemId, quantity] of holds) holdStock.run(quantity, cart.occurrenceId, itemId);
    },
    addLine(cartId: string, line: CartLine): void {
      insertLine.run(lineParams(cartId, nextPosition.get(cartId)?.next ?? 0, line));
    },
    get: (cartId: string): CartRow | undefined => cartById.get(cartId),
    /** who the cart belongs to (null: the v1 facade's, or made before ownership); undefined: no such cart */
    owner: (cartId: string): { owner: string | null } | undefined => ownerOf.get(cartId),
    lines: (cartId: string): CartLine[] => linesOf.all(cartId).map(toLine),
    setQuantity: (cartId: string, itemId: string, quantity: number): void => void setQuantity.run(quantity, itemId, cartId),
    deleteLine: (cartId: string, itemId: string): void => void deleteLine.run(itemId, cartId),
    setCurrency: (cartId: string, currency: string): void => void setCurrency.run(currency, cartId),
    voucherCodes: (cartId: string): string[] => vouchersOf.all(cartId).map((row) => row.code),
    addVoucher: (cartId: string, code: string): void => void addVoucher.run(cartId, code, cartId),
    removeVoucher: (cartId: string, code: string): void => void removeVoucher.run(cartId, code),
  };
}

/** a line's column values, shared by both adapters */
export function lineParams(cartId: string, position: number, line: CartLine) {
  return {
    id: line.id,
    cartId,
    position,
    type: line.type,
    name: line.name,
    quantity: line.quantity,
    baseUnitPrice: line.baseUnitPrice,
    inventoryItemId: line.inventoryItemId ?? null,
    priceOptionId: line.priceOptionId ?? null,
    extraId: line.extraId ?? null,
  };
}

export type CartRepo = ReturnType<typeof createCartRepo>;
