import { Type, type Static } from 'typebox';
import { CurrencyCode, Money, Timestamp } from './common';

/** GET /orders/summary: what the orders made in a time window add up to, per currency. */

export const OrdersSummaryQuery = Type.Object(
  {
    from: Type.String({ format: 'date-time', description: 'start of the window (included), an ISO 8601 date-time with its offset' }),
    to: Type.String({ format: 'date-time', description: 'end of the window (excluded); after `from` (400 INVALID_FIELD_VALUE reason empty_range otherwise)' }),
  },
  { additionalProperties: false },
);
export type OrdersSummaryQuery = Static<typeof OrdersSummaryQuery>;

export const CurrencySummary = Type.Object({
  currency: CurrencyCode,
  orders: Type.Integer({ minimum: 0, description: 'orders made in the window in this currency, cancelled ones included' }),
  total: Money,
  cancelled: Type.Object({
    orders: Type.Integer({ minimum: 0, description: 'of those, how many are cancelled now' }),
    total: Money,
  }),
  net: Money,
}, { description: '`total`: the orders\' totals added up; `net`: total less the cancelled total, what stays sold' });

export const OrdersSummary = Type.Object({
  from: Timestamp,
  to: Timestamp,
  currencies: Type.Array(CurrencySummary, { description: 'one entry per currency sold in, by currency code; empty when nothing was sold' }),
});
export type OrdersSummary = Static<typeof OrdersSummary>;
