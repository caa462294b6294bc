import type { Cart } from '../contract/cart';
import type { Order, PaymentView } from '../contract/order';
import type { Money } from '../domain/money';
import { entryOfRow } from '../domain/journal';
import { appendJournal } from '../journal/append';
import type { CartRow } from '../store/cart-repo';
import type { Tx } from '../store/port';
import { baseReceipt } from '../carts/cart-view';

/**
 * The journal entries of a sale and of its cancellation (contract §14), written by createOrder and cancelOrder in
 * their own transaction, last (appendJournal takes the journal head's lock, the last lock of a transaction).
 */

/** One payment (or refund) of an order by one method, in the order's currency. */
export interface MethodAmount {
  readonly method: PaymentView['method'];
  readonly amount: Money;
}

/** An order's parts by method: each gift-card part (method giftCard), then what its method took unless cards paid it all. */
export function paymentsOf(payment: PaymentView): MethodAmount[] {
  const parts = (payment.giftCards ?? []).map((part) => ({ method: 'giftCard' as const, amount: { amount: part.amount.amount, currency: part.amount.currency } }));
  if (payment.method === 'giftCard' && parts.length > 0) return parts;
  return [...parts, { method: payment.method, amount: { amount: payment.amount.amount, currency: payment.amount.currency } }];
}

/**
 * What a sale comes to in the base currency of its location (its first currency), priced from the cart's lines as
 * they were sold — the same prices the cart's own currency was converted from — and the part of it that is the
 * event's (everything but gift cards sold). `sold`: the cart as it was charged, in its own currency.
 */
async function inBase(tx: Tx, cart: CartRow, sold: Pick<Cart, 'currency' | 'total' | 'receiptLines'>, now: number): Promise<{ baseTotal: Money; eventTotal: Money }> {
  const base = (await tx.catalog.location(cart.locationId))?.currencies[0];
  const priced = base === undefined || base === sold.currency ? sold : await baseReceipt(tx, cart, now);
  const event = priced.receiptLines.filter((line) => line.type !== 'giftCard').reduce((sum, line) => sum + line.sign * line.amount.amount, 0);
  return { baseTotal: { amount: priced.total.amount, currency: priced.total.currency }, eventTotal: { amount: event, currency: priced.total.currency } };
}

/**
 * The base total the sale's own `order` entry counted, when this engine journalled the sale: a cancellation counts
 * the same, whatever the catalog did since (a voucher changed, the base currency) — priced again, it would not.
 */
async function soldBaseTotal(tx: Tx, orderId: string): Promise<Money | undefined> {
  const row = await tx.journal.saleOf(orderId);
  const sold = row === undefined ? undefined : entryOfRow(row)?.data.baseTotal;
  return isMoney(sold) ? { amount: sold.amount, currency: sold.currency } : undefined;
}

const isMoney = (value: unknown): value is Money => typeof value === 'object' && value !== null && 'amount' in value && 'currency' in value
  && typeof value.amount === 'number' && typeof value.currency === 'string';

/**
 * The `order` entry of a sale made on this engine: ref = the order, amount = its total; data: its currency and
 * total, `baseTotal`, `payments` by method (gift-card parts each), and `events` (the show's event, its tickets and
 * its part of the base total; none for a gift-card purchase).
 */
export async function journalOrder(tx: Tx, order: Order, cart: CartRow, sold: Pick<Cart, 'currency' | 'total' | 'receiptLines'>, now: number): Promise<void> {
  const { baseTotal, eventTotal } = await inBase(tx, cart, sold, now);
  const events = cart.kind === 'ticket'
    ? [{ eventId: cart.eventId, name: order.event?.name ?? cart.eventId, tickets: order.tickets.length, total: eventTotal }]
    : [];
  await appendJournal(tx, {
    at: now,
    kind: 'order',
    ref: order.id,
    amount: { amount: order.total.amount, currency: order.total.currency },
    data: { orderId: order.id, currency: order.currency, total: { amount: order.total.amount, currency: order.total.currency }, baseTotal, payments: paymentsOf(order.payment), events },
  });
}

/**
 * The `cancellation` entry of an order cancelled on this engine: ref = the order, amount = what is given back (all
 * of it, in the order's currency); data: `refunds` by method (gift-card parts back onto their cards, the rest by
 * its method; a zero total gives nothing back) and `baseTotal` (the sale's, in the base currency). `order` is the
 * order as it was before the cancellation.
 */
export async function journalCancellation(tx: Tx, order: Order, cart: CartRow, now: number): Promise<void> {
  const base = (await tx.catalog.location(cart.locationId))?.currencies[0];
  // an order in another currency: its sale's base total (the journal is read only then, by the index on ref)
  const baseTotal = base === undefined || base === order.currency
    ? { amount: order.total.amount, currency: order.total.currency }
    : (await soldBaseTotal(tx, order.id)) ?? (await inBase(tx, cart, order, now)).baseTotal;
  const refunds = paymentsOf(order.payment).filter((part) => part.amount.amount > 0);
  const amount = { amount: refunds.reduce((sum, part) => sum + part.amount.amount, 0), currency: order.currency };
  await appendJournal(tx, { at: now, kind: 'cancellation', ref: order.id, amount, data: { orderId: order.id, refunds, baseTotal } });
}
