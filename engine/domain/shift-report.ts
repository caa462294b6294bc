import type { Money } from './money';

/**
 * A shift's report (contract §14) as a pure fold over the journal entries written while it was open: the X report
 * of an open shift, and the Z report frozen when it closes. Nothing here reads a clock or a database.
 *
 * - `orders`: how many sales and the sum of their totals in the base currency (`baseTotal`: priced at sale time).
 * - `byMethod`: one row per payment method and currency — how many orders it paid (an order counts once per method
 *   however many parts, e.g. two gift cards) and the sum it paid. Rows in the base currency first, then the other
 *   currencies in code order; within a currency cash, card, gift card, external, none, then any other by name.
 * - `byEvent`: per event, the tickets sold and the sum in the base currency, in the order each first sold.
 * - `cancellations`: the cancellations made in the shift (whichever shift sold the order) and their base totals.
 * - `cash`: the drawer in the base currency — `expected = openingFloat + sales − refunds + payIns − payOuts`, where
 *   sales are what cash paid (not what was tendered) and refunds what cash gave back. Cash taken in another
 *   currency is in `byMethod` only: it is counted separately, not in the drawer's expected figure.
 *
 * The base currency is the shift's: its opening float's. An amount in another currency (a base total priced before
 * the catalog's base currency changed) is left out of the base sums, never converted.
 */

export interface PaymentPart {
  readonly method: string;
  readonly amount: Money;
}

export interface EventPart {
  readonly eventId: string;
  readonly name: string;
  readonly tickets: number;
  /** in the base currency */
  readonly total: Money;
}

/** what an `order` entry's data says (engine/journal) */
export interface OrderFigures {
  readonly baseTotal: Money;
  readonly payments: readonly PaymentPart[];
  readonly events: readonly EventPart[];
}

/** what a `cancellation` entry's data says */
export interface CancellationFigures {
  readonly baseTotal: Money;
  readonly refunds: readonly PaymentPart[];
}

/** The journal entries a report reads; any other kind (shiftOpened, shiftClosed) holds no figure of it. */
export type ReportEntry =
  | { readonly kind: 'order'; readonly data: OrderFigures }
  | { readonly kind: 'cancellation'; readonly data: CancellationFigures }
  | { readonly kind: 'payIn' | 'payOut'; readonly amount: Money }
  | { readonly kind: 'other' };

export interface MethodRow {
  readonly method: string;
  readonly currency: string;
  readonly count: number;
  readonly total: Money;
}

export interface EventRow {
  readonly eventId: string;
  readonly name: string;
  readonly tickets: number;
  readonly total: Money;
}

export interface CashFigures {
  readonly openingFloat: Money;
  readonly sales: Money;
  readonly refunds: Money;
  readonly payIns: Money;
  readonly payOuts: Money;
  readonly expected: Money;
}

export interface ReportFigures {
  readonly orders: { readonly count: number; readonly total: Money };
  readonly cancellations: { readonly count: number; readonly total: Money };
  readonly byMethod: MethodRow[];
  readonly byEvent: EventRow[];
  readonly cash: CashFigures;
}

const METHOD_ORDER = ['cash', 'card', 'giftCard', 'external', 'none'];

/** The report's figures: `openingFloat` is the shift's (its currency the base), `entries` the shift's in seq order. */
export function foldShiftReport(openingFloat: Money, entries: Iterable<ReportEntry>): ReportFigures {
  const base = openingFloat.currency;
  const inBase = (money: Money): number => (money.currency === base ? money.amount : 0);
  let orders = 0;
  let ordersTotal = 0;
  let cancellations = 0;
  let cancellationsTotal = 0;
  let sales = 0;
  let refunds = 0;
  let payIns = 0;
  let payOuts = 0;
  const methods = new Map<string, { method: string; currency: string; count: number; total: number }>();
  const events = new Map<string, { eventId: string; name: string; tickets: number; total: number }>();

  for (const entry of entries) {
    switch (entry.kind) {
      case 'order': {
        orders += 1;
        ordersTotal += inBase(entry.data.baseTotal);
        const counted = new Set<string>();
        for (const part of entry.data.payments) {
          const key = `${part.amount.currency}\n${part.method}`;
          const row = methods.get(key) ?? { method: part.method, currency: part.amount.currency, count: 0, total: 0 };
          if (!counted.has(key)) row.count += 1;
          counted.add(key);
          row.total += part.amount.amount;
          methods.set(key, row);
          if (part.method === 'cash') sales += inBase(part.amount);
        }
        for (const event of entry.data.events) {
          const row = events.get(event.eventId) ?? { eventId: event.eventId, name: event.name, tickets: 0, total: 0 };
          row.tickets += event.tickets;
          row.total += inBase(event.total);
          events.set(event.eventId, row);
        }
        break;
      }
      case 'cancellation':
        cancellations += 1;
        cancellationsTotal += inBase(entry.data.baseTotal);
        for (const part of entry.data.refunds) if (part.method === 'cash') refunds += inBase(part.amount);
        break;
      case 'payIn':
        payIns += inBase(entry.amount);
        break;
      case 'payOut':
        payOuts += inBase(entry.amount);
        break;
      case 'other':
        break;
    }
  }

  const money = (amount: number): Money => ({ amount, currency: base });
  return {
    orders: { count: orders, total: money(ordersTotal) },
    cancellations: { count: cancellations, total: money(cancellationsTotal) },
    byMethod: [...methods.values()]
      .sort((a, b) => compareMethodRows(a, b, base))
      .map((row) => ({ method: row.method, currency: row.currency, count: row.count, total: { amount: row.total, currency: row.currency } })),
    byEvent: [...events.values()].map((row) => ({ eventId: row.eventId, name: row.name, tickets: row.tickets, total: money(row.total) })),
    cash: {
      openingFloat,
      sales: money(sales),
      refunds: money(refunds),
      payIns: money(payIns),
      payOuts: money(payOuts),
      expected: money(openingFloat.amount + sales - refunds + payIns - payOuts),
    },
  };
}

function compareMethodRows(a: { method: string; currency: string }, b: { method: string; currency: string }, base: string): number {
  if (a.currency !== b.currency) {
    if (a.currency === base) return -1;
    if (b.currency === base) return 1;
    return a.currency < b.currency ? -1 : 1;
  }
  const rank = (method: string) => {
    const index = METHOD_ORDER.indexOf(method);
    return index === -1 ? METHOD_ORDER.length : index;
  };
  return rank(a.method) - rank(b.method) || (a.method < b.method ? -1 : a.method > b.method ? 1 : 0);
}
