import { formatDateTime } from '../../format';
import type { Cart, Event, Order } from '../../api/types';

/**
 * Gift cards in the UI (spec §3: a cart holds at most one gift card, of quantity 1). A gift card is sold
 * through a catalog "event" of kind `giftCard` whose one occurrence has a date only because the catalog
 * needs one: the UI never shows it, nor an availability count, and offers a quantity of 1 at most.
 */
export const isGiftCardEvent = (event: Pick<Event, 'kind'> | undefined): boolean => event?.kind === 'giftCard';

/** An order that sells a gift card (a cart never mixes gift cards and tickets). */
export const isGiftCardOrder = (order: Pick<Order, 'items'>): boolean => order.items.some((item) => item.type === 'giftCard');

/** A cart that sells a gift card: gift cards do not pay for it (contract §13, GIFT_CARD_NOT_ACCEPTED). */
export const isGiftCardCart = (cart: Pick<Cart, 'items'>): boolean => cart.items.some((item) => item.type === 'giftCard');

/** the most gift cards one cart holds */
export const GIFT_CARDS_PER_CART = 1;

/** The date and time of the show an order is for, on the venue's clock; none for a gift card. */
export function orderShowDate(order: Pick<Order, 'items' | 'event'>, locale: string, timeZone: string | undefined): string | undefined {
  return order.event && !isGiftCardOrder(order) ? formatDateTime(order.event.startsAt, locale, timeZone) : undefined;
}
