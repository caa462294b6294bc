import type { OrdersSummary, OrdersSummaryQuery } from '../contract/order-summary';
import { EngineError } from '../domain/errors';
import type { Repos } from '../store/port';

/**
 * GET /orders/summary: the orders made from `from` (included) to `to` (excluded), added up per currency —
 * never across currencies, which have no common unit without a rate. A cancelled order counts in `orders`
 * and `total` (it was sold in the window) and again in `cancelled`; `net` is what stays sold. `owner`: only
 * that owner's orders (a key without orders:any sees its own, as GET /orders lists them); undefined: every order.
 */
export async function summarizeOrders(summaries: Repos['orderSummaries'], query: OrdersSummaryQuery, owner?: string): Promise<OrdersSummary> {
  const from = Date.parse(query.from);
  const to = Date.parse(query.to);
  if (!(to > from)) throw new EngineError('INVALID_FIELD_VALUE', { param: 'to', details: { location: 'querystring', reason: 'empty_range' } });
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    currencies: (await summaries.between(from, to, owner)).map((row) => ({
      currency: row.currency,
      orders: row.orders,
      total: { amount: row.total, currency: row.currency },
      cancelled: { orders: row.cancelledOrders, total: { amount: row.cancelledTotal, currency: row.currency } },
      net: { amount: row.total - row.cancelledTotal, currency: row.currency },
    })),
  };
}
