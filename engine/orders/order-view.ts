import type { Order, PaymentView } from '../contract/order';
import type { Cart } from '../contract/cart';
import type { GiftCardRow, OrderEventRow, OrderRow, TicketPlaceRow } from '../store/order-repo';
import type { Repos } from '../store/port';
import { groupBy } from '../shared/group-by';

/** The order as the API shows it (contract §4), from its row, its tickets and its gift cards. */

export interface OrderLines {
  items: Cart['items'];
  receiptLines: Cart['receiptLines'];
}

export function orderView(row: OrderRow, tickets: readonly TicketPlaceRow[], giftCards: readonly GiftCardRow[], event: OrderEventRow | undefined): Order {
  const lines = JSON.parse(row.lines) as OrderLines;
  const payment = JSON.parse(row.payment) as PaymentView;
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
    tickets: tickets.map(({ id, itemId, code, area, seat }) => ({ id, itemId, code, ...(area !== null && { area }), ...(seat !== null && { seat }) })),
    giftCards: giftCards.map(({ code, itemId, amount, currency, status }) => ({ code, itemId, value: { amount, currency }, status })),
  };
}

/** Views of several orders with their tickets, gift cards and shows fetched in three queries, not three per order. */
export async function orderViews(repos: Pick<Repos, 'orders'>, rows: readonly OrderRow[]): Promise<Order[]> {
  const ids = rows.map((row) => row.id);
  const tickets = groupBy(await repos.orders.tickets(ids), (ticket) => ticket.orderId);
  const cards = groupBy(await repos.orders.giftCards(ids), (card) => card.orderId);
  const events = new Map((await repos.orders.events(ids)).map((event) => [event.orderId, event]));
  return rows.map((row) => orderView(row, tickets.get(row.id) ?? [], cards.get(row.id) ?? [], events.get(row.id)));
}
