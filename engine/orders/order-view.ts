import type { Order, PaymentView } from '../contract/order';
import type { Cart } from '../contract/cart';
import type { AttemptRow } from '../store/checkout-repo';
import type { GiftCardEntryRow } from '../store/gift-card-repo';
import type { GiftCardRow, OrderEventRow, OrderRow, TicketPlaceRow } from '../store/order-repo';
import type { Repos } from '../store/port';
import { groupBy } from '../shared/group-by';
import { paymentView, usesGiftCardLedger } from '../checkout/payments/lifecycle';

export interface OrderLines {
  items: Cart['items'];
  receiptLines: Cart['receiptLines'];
}

/**
 * An order's payment: derived from its payment attempt by the payment lifecycle (issue #23; the order keeps no
 * copy). An order without an attempt (a database older than attempts, or rows written by hand) shows the view
 * stored on its row — as a cancellation used to leave it: refunded at once, when the order was cancelled.
 */
export function paymentOf(row: OrderRow, attempt: AttemptRow | undefined, giftCardEntries: readonly GiftCardEntryRow[] = []): PaymentView {
  if (attempt) return paymentView(attempt, giftCardEntries);
  const stored = JSON.parse(row.payment) as PaymentView;
  if (row.status !== 'cancelled' || stored.status !== 'captured' || row.cancelledAt === null) return stored;
  return { ...stored, status: 'refunded', refundedAt: new Date(row.cancelledAt).toISOString() };
}

/** The order as the API shows it (contract §4), from its row, its payment attempt, its tickets and its gift cards. */
export function orderView(
  row: OrderRow,
  attempt: AttemptRow | undefined,
  tickets: readonly TicketPlaceRow[],
  giftCards: readonly GiftCardRow[],
  event: OrderEventRow | undefined,
  giftCardEntries: readonly GiftCardEntryRow[] = [],
): Order {
  const lines = JSON.parse(row.lines) as OrderLines;
  const payment = paymentOf(row, attempt, giftCardEntries);
  return {
    id: row.id,
    cartId: row.cartId,
    status: row.status,
    createdAt: new Date(row.createdAt).toISOString(),
    ...(row.cancelledAt !== null && { cancelledAt: new Date(row.cancelledAt).toISOString() }),
    currency: row.currency,
    total: { amount: row.total, currency: row.currency },
    items: lines.items,
    receiptLines: lines.receiptLines,
    payment,
    ...(event && {
      event: {
        id: event.eventId,
        name: event.eventName,
        occurrenceId: event.occurrenceId,
        startsAt: event.startsAt,
        location: { id: event.locationId, name: event.locationName, ...(event.timeZone !== null && { timeZone: event.timeZone }) },
      },
    }),
    tickets: tickets.map(({ id, itemId, code, area, seat, signedCode }) => ({
      id, itemId, code, ...(area !== null && { area }), ...(seat !== null && { seat }), ...(signedCode !== null && { signedCode }),
    })),
    giftCards: giftCards.map(({ code, itemId, amount, currency, status }) => ({ code, itemId, value: { amount, currency }, status })),
  };
}

/**
 * Views of several orders with their payment attempts, tickets, gift cards, shows and gift-card payment parts
 * fetched in five queries (four when no attempt among them has gift-card parts), not five per order.
 */
export async function orderViews(repos: Pick<Repos, 'orders' | 'checkout' | 'giftCards'>, rows: readonly OrderRow[]): Promise<Order[]> {
  const ids = rows.map((row) => row.id);
  const attempts = new Map((await repos.checkout.attemptsForOrders(ids)).map((attempt) => [attempt.orderId, attempt]));
  const tickets = groupBy(await repos.orders.tickets(ids), (ticket) => ticket.orderId);
  const cards = groupBy(await repos.orders.giftCards(ids), (card) => card.orderId);
  const events = new Map((await repos.orders.events(ids)).map((event) => [event.orderId, event]));
  // the gift-card parts of their payments (issue #24), from the ledger: only orders whose attempt has any there
  const paidByCard = rows.filter((row) => {
    const attempt = attempts.get(row.id);
    return attempt !== undefined && usesGiftCardLedger(attempt);
  }).map((row) => row.id);
  const parts = groupBy(paidByCard.length === 0 ? [] : await repos.giftCards.ofOrders(paidByCard), (entry) => entry.orderId ?? '');
  return rows.map((row) => orderView(row, attempts.get(row.id), tickets.get(row.id) ?? [], cards.get(row.id) ?? [], events.get(row.id), parts.get(row.id) ?? []));
}
