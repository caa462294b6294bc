import type { GiftCardRow, OrderEventRow, OrderRepo, OrderRow, TicketPlaceRow } from '../order-repo';
import type { Async } from '../port-types';
import { pgCartStockUpdate } from './cart-stock';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/order-repo.ts: orders, their tickets and gift cards, and the stock they sold. Runs in
 * the caller's transaction. SQLite's implicit `rowid` (insertion order, the pages' cursor) is a real identity column
 * of the same name here (migrations/0016-baseline.sql), so the paging SQL is SQLite's.
 */

const ORDER_COLUMNS = `id, cart_id AS "cartId", status, created_at AS "createdAt", cancelled_at AS "cancelledAt", currency, total, lines, payment`;
const O_ORDER_COLUMNS = `o.id, o.cart_id AS "cartId", o.status, o.created_at AS "createdAt", o.cancelled_at AS "cancelledAt", o.currency, o.total,
  o.lines, o.payment`;

const SELL_HELD = pgCartStockUpdate('held = i.held - x.q, sold = i.sold + x.q');
const UNSELL = pgCartStockUpdate('sold = i.sold - x.q');

type PagedOrder = OrderRow & { seq: number };

export function createPgOrderRepo(q: Queryable): Async<OrderRepo> {
  const rows = async <R extends object>(sql: string, values: unknown[]): Promise<R[]> => (await q.query<R & Record<string, unknown>>(sql, values)).rows;

  return {
    /**
     * Writes the order and sells its cart's held stock. orders.cart_id is UNIQUE, so a second order for one
     * cart fails at its INSERT, before any stock moves; the stock's rows are locked in key order (cart-stock.ts).
     */
    async insert(order, tickets, giftCards) {
      await q.query(`INSERT INTO orders (id, cart_id, status, created_at, currency, total, lines, payment, api_key_id, owner)
        VALUES ($1, $2, 'confirmed', $3, $4, $5, $6, '', $7, (SELECT COALESCE(owner, id) FROM api_keys WHERE id = $7))`,
      [order.id, order.cartId, order.createdAt, order.currency, order.total, order.lines, order.apiKeyId]);
      for (const [position, ticket] of tickets.entries()) {
        await q.query('INSERT INTO tickets (id, order_id, item_id, code, position, signed_code) VALUES ($1, $2, $3, $4, $5, $6)',
          [ticket.id, order.id, ticket.itemId, ticket.code, position, ticket.signedCode ?? null]);
      }
      for (const card of giftCards) {
        await q.query(`INSERT INTO gift_cards (code, order_id, item_id, amount, currency, status) VALUES ($1, $2, $3, $4, $5, 'active')`,
          [card.code, order.id, card.itemId, card.amount, card.currency]);
      }
      await q.query(SELL_HELD, [order.cartId]);
      await q.query("UPDATE carts SET status = 'ordered', order_id = $1 WHERE id = $2", [order.id, order.cartId]);
    },
    async get(id: string): Promise<OrderRow | undefined> {
      return (await rows<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1`, [id]))[0];
    },
    /** tickets of several orders in one query */
    tickets: (orderIds: readonly string[]) => rows<TicketPlaceRow>(`SELECT t.id, t.order_id AS "orderId", t.item_id AS "itemId", t.code, t.signed_code AS "signedCode", a.name AS area,
        CASE WHEN a.seating = 'assigned' THEN ii.label END AS seat
      FROM tickets t JOIN orders o ON o.id = t.order_id JOIN carts c ON c.id = o.cart_id
      LEFT JOIN cart_items ci ON ci.id = t.item_id
      LEFT JOIN inventory_items ii ON ii.occurrence_id = c.occurrence_id AND ii.id = ci.inventory_item_id
      LEFT JOIN areas a ON a.occurrence_id = c.occurrence_id AND a.id = ii.area_id
      WHERE t.order_id = ANY($1::text[]) ORDER BY t.order_id COLLATE "C", t.position`, [[...orderIds]]),
    giftCards: (orderIds: readonly string[]) => rows<GiftCardRow & { orderId: string }>(`SELECT code, order_id AS "orderId", item_id AS "itemId", amount,
        currency, status
      FROM gift_cards WHERE order_id = ANY($1::text[]) ORDER BY order_id COLLATE "C", code COLLATE "C"`, [[...orderIds]]),
    /** the show each order is for, in one query */
    events: (orderIds: readonly string[]) => rows<OrderEventRow>(`SELECT o.id AS "orderId", e.id AS "eventId", e.name AS "eventName",
        oc.id AS "occurrenceId", oc.starts_at AS "startsAt", l.id AS "locationId", l.name AS "locationName", l.time_zone AS "timeZone"
      FROM orders o JOIN carts c ON c.id = o.cart_id JOIN occurrences oc ON oc.id = c.occurrence_id
      JOIN events e ON e.id = oc.event_id JOIN locations l ON l.id = e.location_id
      WHERE o.id = ANY($1::text[])`, [[...orderIds]]),
    /** a page of orders, newest first, after the order with sequence number `afterSeq` */
    page: (limit: number, afterSeq?: number) => (afterSeq === undefined
      ? rows<PagedOrder>(`SELECT ${ORDER_COLUMNS}, rowid AS seq FROM orders ORDER BY rowid DESC LIMIT $1`, [limit])
      : rows<PagedOrder>(`SELECT ${ORDER_COLUMNS}, rowid AS seq FROM orders WHERE rowid < $1 ORDER BY rowid DESC LIMIT $2`, [afterSeq, limit])),
    /** a page of one owner's orders, newest first */
    pageOf: (owner: string, limit: number, afterSeq?: number) => (afterSeq === undefined
      ? rows<PagedOrder>(`SELECT ${ORDER_COLUMNS}, rowid AS seq FROM orders WHERE owner = $1 ORDER BY rowid DESC LIMIT $2`, [owner, limit])
      : rows<PagedOrder>(`SELECT ${ORDER_COLUMNS}, rowid AS seq FROM orders WHERE owner = $1 AND rowid < $2 ORDER BY rowid DESC LIMIT $3`, [owner, afterSeq, limit])),
    /** who the order belongs to (null: no key recorded); undefined: no such order */
    async owner(orderId: string): Promise<{ owner: string | null } | undefined> {
      return (await rows<{ owner: string | null }>('SELECT owner FROM orders WHERE id = $1', [orderId]))[0];
    },
    async byTicketCode(code: string): Promise<(OrderRow & { owner: string | null }) | undefined> {
      return (await rows<OrderRow & { owner: string | null }>(`SELECT ${O_ORDER_COLUMNS}, o.owner
        FROM orders o JOIN tickets t ON t.order_id = o.id WHERE t.code = $1`, [code]))[0];
    },
    /**
     * Puts the order's seats back on sale and voids its gift cards — once: the status change is conditional on
     * `confirmed` (the claim), and only the transaction that made it gives the stock back. The SQLite twin relies
     * on its caller having read the order as confirmed.
     */
    async cancel(order: OrderRow, now: number): Promise<undefined> {
      const cancelled = await q.query("UPDATE orders SET status = 'cancelled', cancelled_at = $1 WHERE id = $2 AND status = 'confirmed'",
        [now, order.id]);
      if (cancelled.rowCount !== 1) return;
      await q.query(UNSELL, [order.cartId]);
      await q.query("UPDATE gift_cards SET status = 'void' WHERE order_id = $1", [order.id]);
    },
  };
}
