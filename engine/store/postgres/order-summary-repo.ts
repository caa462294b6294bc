import type { OrderSummaryRepo, OrderSummaryRow } from '../order-summary-repo';
import type { Async } from '../port-types';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/order-summary-repo.ts: sums of the orders made in a time window, one row per currency.
 * SQLite's SUM(status = 'cancelled') is a COUNT … FILTER here; the sums are cast to bigint, which the pool reads as
 * numbers (SUM of a bigint is a numeric, which `pg` would answer as a string). A read: no locking needed.
 */
const SUMS = `SELECT currency, COUNT(*) AS orders, SUM(total)::bigint AS total,
    COUNT(*) FILTER (WHERE status = 'cancelled') AS "cancelledOrders",
    SUM(CASE WHEN status = 'cancelled' THEN total ELSE 0 END)::bigint AS "cancelledTotal"
  FROM orders`;

export function createPgOrderSummaryRepo(q: Queryable): Async<OrderSummaryRepo> {
  return {
    /** orders created at or after `from` and before `to` (epoch milliseconds), by currency; only `owner`'s when given */
    async between(from: number, to: number, owner?: string): Promise<OrderSummaryRow[]> {
      const { rows } = owner === undefined
        ? await q.query<OrderSummaryRow>(`${SUMS} WHERE created_at >= $1 AND created_at < $2 GROUP BY currency ORDER BY currency`, [from, to])
        : await q.query<OrderSummaryRow>(`${SUMS} WHERE owner = $1 AND created_at >= $2 AND created_at < $3 GROUP BY currency ORDER BY currency`,
          [owner, from, to]);
      return rows;
    },
  };
}
