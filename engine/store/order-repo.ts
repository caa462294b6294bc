import { cartStockUpdate } from './cart-stock';
import type { Db } from './db';

/** Orders, their tickets and gift cards, and the stock they sold. Runs in the caller's transaction. */

export interface OrderRow {
  id: string;
  cartId: string;
  status: 'confirmed' | 'cancelled';
  createdAt: number;
  cancelledAt: number | null;
  currency: string;
  total: number;
  lines: string;
  /**
   * The payment view as JSON, for an order of an old database only (one without a payment attempt): since
   * migration 0018 an order's payment is derived from its attempt (orders/order-view.ts) and this is written empty.
   */
  payment: string;
}
/** what a new order is made of: its payment is its attempt's, not written here */
export type NewOrder = Omit<OrderRow, 'status' | 'cancelledAt' | 'payment'> & { apiKeyId: string };
/** `signedCode`: its K1 code (issue #26); null or absent for a ticket without one */
export interface TicketRow { id: string; itemId: string; code: string; signedCode?: string | null }
/** where a ticket admits to: its area and, in an assigned-seat area, the seat's label */
export interface TicketPlaceRow extends TicketRow { orderId: string; area: string | null; seat: string | null; signedCode: string | null }
/** which show an order is for, from the catalog as it stands now (a moved show prints its new time) */
export interface OrderEventRow { orderId: string; eventId: string; eventName: string; occurrenceId: string; startsAt: string; locationId: string; locationName: string; timeZone: string | null }
export interface GiftCardRow { code: string; itemId: string; amount: number; currency: string; status: 'active' | 'void' }

const ORDER_COLUMNS = `id, cart_id AS cartId, status, created_at AS createdAt, cancelled_at AS cancelledAt, currency, total, lines, payment`;

export function createOrderRepo(db: Db) {
  // the owner is the key's that checked out (its id, or its role's shared name; at a hub the importing terminal's)
  const insertOrder = db.prepare(`INSERT INTO orders (id, cart_id, status, created_at, currency, total, lines, payment, api_key_id, owner)
    VALUES (@id, @cartId, 'confirmed', @createdAt, @currency, @total, @lines, '', @apiKeyId,
      (SELECT COALESCE(owner, id) FROM api_keys WHERE id = @apiKeyId))`);
  const ownerOf = db.prepare<[string], { owner: string | null }>('SELECT owner FROM orders WHERE id = ?');
  const insertTicket = db.prepare('INSERT INTO tickets (id, order_id, item_id, code, position, signed_code) VALUES (?, ?, ?, ?, ?, ?)');
  const insertGiftCard = db.prepare(`INSERT INTO gift_cards (code, order_id, item_id, amount, currency, status) VALUES (?, ?, ?, ?, ?, 'active')`);
  const sellHeld = db.prepare<[string]>(cartStockUpdate('held = i.held - x.q, sold = i.sold + x.q'));
  const unsell = db.prepare<[string]>(cartStockUpdate('sold = i.sold - x.q'));
  const markCartOrdered = db.prepare<[string, string]>("UPDATE carts SET status = 'ordered', order_id = ? WHERE id = ?");
  const orderById = db.prepare<[string], OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ?`);
  const ticketsOf = db.prepare<[string], TicketPlaceRow>(`SELECT t.id, t.order_id AS orderId, t.item_id AS itemId, t.code, t.signed_code AS signedCode, a.name AS area,
      CASE WHEN a.seating = 'assigned' THEN ii.label END AS seat
    FROM tickets t JOIN orders o ON o.id = t.order_id JOIN carts c ON c.id = o.cart_id
    LEFT JOIN cart_items ci ON ci.id = t.item_id
    LEFT JOIN inventory_items ii ON ii.occurrence_id = c.occurrence_id AND ii.id = ci.inventory_item_id
    LEFT JOIN areas a ON a.occurrence_id = c.occurrence_id AND a.id = ii.area_id
    WHERE t.order_id IN (SELECT value FROM json_each(?)) ORDER BY t.order_id, t.position`);
  const eventsOf = db.prepare<[string], OrderEventRow>(`SELECT o.id AS orderId, e.id AS eventId, e.name AS eventName, oc.id AS occurrenceId,
      oc.starts_at AS startsAt, l.id AS locationId, l.name AS locationName, l.time_zone AS timeZone
    FROM orders o JOIN carts c ON c.id = o.cart_id JOIN occurrences oc ON oc.id = c.occurrence_id
    JOIN events e ON e.id = oc.event_id JOIN locations l ON l.id = e.location_id
    WHERE o.id IN (SELECT value FROM json_each(?))`);
  const giftCardsOf = db.prepare<[string], GiftCardRow & { orderId: string }>(`SELECT code, order_id AS orderId, item_id AS itemId, amount, currency, status
    FROM gift_cards WHERE order_id IN (SELECT value FROM json_each(?)) ORDER BY order_id, code`);
  // Newest first by insertion order (the rowid), which also orders orders placed in the same millisecond.
  const newest = db.prepare<[number], OrderRow & { seq: number }>(`SELECT ${ORDER_COLUMNS}, rowid AS seq FROM orders ORDER BY rowid DESC LIMIT ?`);
  const olderThan = db.prepare<[number, number], OrderRow & { seq: number }>(`SELECT ${ORDER_COLUMNS}, rowid AS seq FROM orders
    WHERE rowid < ? ORDER BY rowid DESC LIMIT ?`);
  // one owner's orders (a key without orders:any), through orders_by_owner
  const newestOf = db.prepare<[string, number], OrderRow & { seq: number }>(`SELECT ${ORDER_COLUMNS}, rowid AS seq FROM orders
    WHERE owner = ? ORDER BY rowid DESC LIMIT ?`);
  const olderOf = db.prepare<[string, number, number], OrderRow & { seq: number }>(`SELECT ${ORDER_COLUMNS}, rowid AS seq FROM orders
    WHERE owner = ? AND rowid < ? ORDER BY rowid DESC LIMIT ?`);
  const byTicketCode = db.prepare<[string], OrderRow & { owner: string | null }>(`SELECT ${ORDER_COLUMNS.replace(/(^|, )(\w+)/g, '$1o.$2')}, o.owner
    FROM orders o JOIN tickets t ON t.order_id = o.id WHERE t.code = ?`);
  const cancel = db.prepare<[number, string]>("UPDATE orders SET status = 'cancelled', cancelled_at = ? WHERE id = ?");
  const voidGiftCards = db.prepare<[string]>("UPDATE gift_cards SET status = 'void' WHERE order_id = ?");

  return {
    insert(order: NewOrder, tickets: readonly TicketRow[], giftCards: readonly Omit<GiftCardRow, 'status'>[]) {
      insertOrder.run(order);
      tickets.forEach((ticket, position) => insertTicket.run(ticket.id, order.id, ticket.itemId, ticket.code, position, ticket.signedCode ?? null));
      for (const card of giftCards) insertGiftCard.run(card.code, order.id, card.itemId, card.amount, card.currency);
      sellHeld.run(order.cartId);
      markCartOrdered.run(order.id, order.cartId);
    },
    get: (id: string) => orderById.get(id),
    /** tickets of several orders in one query */
    tickets: (orderIds: readonly string[]) => ticketsOf.all(JSON.stringify(orderIds)),
    giftCards: (orderIds: readonly string[]) => giftCardsOf.all(JSON.stringify(orderIds)),
    /** the show each order is for, in one query */
    events: (orderIds: readonly string[]) => eventsOf.all(JSON.stringify(orderIds)),
    /** a page of orders, newest first, after the order with sequence number `afterSeq` */
    page: (limit: number, afterSeq?: number) => (afterSeq === undefined ? newest.all(limit) : olderThan.all(afterSeq, limit)),
    /** a page of one owner's orders, newest first */
    pageOf: (owner: string, limit: number, afterSeq?: number) => (afterSeq === undefined ? newestOf.all(owner, limit) : olderOf.all(owner, afterSeq, limit)),
    /** who the order belongs to (null: no key recorded); undefined: no such order */
    owner: (orderId: string): { owner: string | null } | undefined => ownerOf.get(orderId),
    byTicketCode: (code: string) => byTicketCode.get(code),
    /** Puts the order's seats back on sale and voids its gift cards. */
    cancel(order: OrderRow, now: number) {
      cancel.run(now, order.id);
      unsell.run(order.cartId);
      voidGiftCards.run(order.id);
    },
  };
}

export type OrderRepo = ReturnType<typeof createOrderRepo>;
