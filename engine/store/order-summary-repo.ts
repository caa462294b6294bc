import type { Db } from './db';

/** Sums of the orders made in a time window, one row per currency (GET /orders/summary). */
export interface OrderSummaryRow {
  currency: string;
  orders: number;
  total: number;
  cancelledOrders: number;
  cancelledTotal: number;
}

export function createOrderSummaryRepo(db: Db) {
  // orders_newest_first (created_at DESC, id DESC) serves the range.
  const sums = db.prepare<[number, number], OrderSummaryRow>(`SELECT currency, COUNT(*) AS orders, SUM(total) AS total,
      SUM(status = 'cancelled') AS cancelledOrders, SUM(CASE WHEN status = 'cancelled' THEN total ELSE 0 END) AS cancelledTotal
    FROM orders WHERE created_at >= ? AND created_at < ? GROUP BY currency ORDER BY currency`);
  // one owner's orders (a key without orders:any): the window's rows of that owner, through orders_by_owner
  const sumsOf = db.prepare<[string, number, number], OrderSummaryRow>(`SELECT currency, COUNT(*) AS orders, SUM(total) AS total,
      SUM(status = 'cancelled') AS cancelledOrders, SUM(CASE WHEN status = 'cancelled' THEN total ELSE 0 END) AS cancelledTotal
    FROM orders WHERE owner = ? AND created_at >= ? AND created_at < ? GROUP BY currency ORDER BY currency`);
  return {
    /** orders created at or after `from` and before `to` (epoch milliseconds), by currency; only `owner`'s when given */
    between: (from: number, to: number, owner?: string): OrderSummaryRow[] => (owner === undefined ? sums.all(from, to) : sumsOf.all(owner, from, to)),
  };
}

export type OrderSummaryRepo = ReturnType<typeof createOrderSummaryRepo>;
