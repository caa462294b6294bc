import type { Cart } from '../contract/cart';
import type { Order } from '../contract/order';
import type { OutboxRow } from '../store/outbox-repo';
import { readOrder } from '../orders/read-order';
import type { Clock, Durability, Storage } from '../shared/context';
import type { Channel } from './channel';
import { isStockRefusal, learnHold, mayHaveMadeCart, releaseEarlierCarts, unknownCartLapsesAt } from './earlier-carts';
import { deliverRelease } from './hub-gift-cards';
import { refused, type Delivery } from './refusal';
import { dataOf, type UpstreamAnswer } from './upstream';

export type { Delivery };

/**
 * Delivers one outbox entry through the upstream's own v3 interface — the cart flow, which any v3 service
 * speaks — so that every retry (after a lost answer, a timeout or a crash) lands on the same upstream order:
 *  1. the upstream cart is created once and its id recorded before anything else (a lost answer here
 *     leaves at most an orphan hold upstream; until it lapses, the stock it holds is waited for rather
 *     than taken for a conflict — earlier-carts.ts);
 *  2. extras and vouchers are brought to what the local order has (set, not added: safe to repeat);
 *  3. checkout with the entry's fixed Idempotency-Key and `payment: { method: 'external' }`. A replay returns
 *     the order; once the key has expired upstream (24 h), the cart answers CART_ALREADY_ORDERED with the
 *     order's id — so an order that waited longer than that still lands exactly once.
 */

export async function deliverEntry(ctx: Storage & Clock & Durability, upstream: Channel, entry: OutboxRow): Promise<Delivery> {
  // a terminal checkout that failed after its gift-card parts were held at the hub: the hold goes there
  if (entry.kind === 'gift-card-release') return deliverRelease(upstream, entry.orderId, entry.attempts === 0);
  return entry.kind === 'order' ? deliverOrder(ctx, upstream, entry) : deliverCancel(ctx, upstream, entry);
}

async function deliverOrder(ctx: Storage & Clock & Durability, upstream: Channel, entry: OutboxRow): Promise<Delivery> {
  const order = await readOrder(ctx, entry.orderId);
  if (order.status === 'cancelled' && entry.upstreamOrderId === null) return cancelledHere(upstream, entry);
  let cartId = entry.upstreamCartId;
  if (cartId === null) {
    const opened = await openUpstreamCart(ctx, upstream, entry, order);
    if ('kind' in opened) return opened;
    cartId = opened.cartId;
  }

  const shaped = await shapeCart(ctx, upstream, cartId, order);
  if (shaped) return shaped;

  const placed = await upstream.post(
    '/orders',
    { cartId, expectedTotal: order.total, payment: { method: 'external', reference: order.id } },
    { idempotencyKey: entry.idempotencyKey },
  );
  const upstreamOrder = placed.status === 201 ? dataOf<Order>(placed) : undefined;
  if (upstreamOrder) return { kind: 'delivered', upstreamOrderId: upstreamOrder.id };
  return refused(placed);
}

/**
 * Step 1: a new upstream cart for the order, its id recorded before anything else. Refused for stock, the
 * terminal's own earlier carts that may hold that stock are dealt with first (earlier-carts.ts): known ones
 * are released and the cart asked for again at once; an unknown one (a lost answer) is waited out until its
 * hold lapses; otherwise the refusal is a conflict, decided in this attempt.
 */
async function openUpstreamCart(ctx: Storage & Clock & Durability, upstream: Channel, entry: OutboxRow, order: Order): Promise<{ readonly cartId: string } | Delivery> {
  // Written before the request: should the engine stop before the answer, the next attempt knows a cart may exist.
  const earlier = entry.cartAttemptedAt;
  await ctx.store.repos.outbox.setCartAttempt(entry.id, ctx.now());
  await ctx.whenDurable();
  const items = order.items
    .filter((item) => item.type !== 'extra')
    .map((item) => ({ occurrenceId: item.occurrenceId, inventoryItemId: item.inventoryItemId, priceOptionId: item.priceOptionId, quantity: item.quantity }));
  /** the last request of this attempt that may have made a cart whose answer was lost */
  let unknownSince: number | undefined;
  const onAnswer = (answer: UpstreamAnswer, sentAt: number): void => {
    if (mayHaveMadeCart(answer)) unknownSince = sentAt;
  };
  const create = () => upstream.post('/carts', { items, currency: order.currency }, { repeatable: true, onAnswer });
  let created = await create();
  if (isStockRefusal(created) && (await releaseEarlierCarts(ctx, upstream)) > 0) created = await create();
  const cart = created.status === 201 ? dataOf<Cart>(created) : undefined;
  const attemptedAt = unknownSince ?? earlier;
  await ctx.store.transaction(async (tx) => {
    await tx.outbox.setCartAttempt(entry.id, attemptedAt);
    if (!cart) return;
    await tx.outbox.setUpstreamCart(entry.id, cart.id);
    await learnHold(tx, created, cart);
  });
  await ctx.whenDurable();
  if (cart) return { cartId: cart.id };
  if (isStockRefusal(created) && attemptedAt !== null) {
    const lapsesAt = await unknownCartLapsesAt(ctx, attemptedAt);
    if (ctx.now() < lapsesAt) {
      return { kind: 'retry', reason: `stock upstream may still be held by an earlier cart of this order whose answer was lost (until ${new Date(lapsesAt).toISOString()})`, afterSteps: 4 };
    }
  }
  return refused(created);
}

/** Brings the upstream cart's extras and vouchers to the local order's; undefined when it is ready. */
async function shapeCart(ctx: Storage, upstream: Channel, cartId: string, order: Order): Promise<Delivery | undefined> {
  const read = await upstream.get(`/carts/${encodeURIComponent(cartId)}`);
  const cart = read.status === 200 ? dataOf<Cart>(read) : undefined;
  if (!cart) return refused(read);
  for (const item of order.items) {
    if (item.type !== 'extra' || item.extraId === undefined) continue;
    const line = cart.items.find((candidate) => candidate.extraId === item.extraId);
    if (line?.quantity === item.quantity) continue;
    const answer = line
      ? await upstream.patch(`/carts/${encodeURIComponent(cartId)}/items/${encodeURIComponent(line.id)}`, { quantity: item.quantity })
      : await upstream.post(`/carts/${encodeURIComponent(cartId)}/items`, { items: [{ extraId: item.extraId, quantity: item.quantity }] }, { repeatable: false });
    if (answer.status !== 200) return refused(answer);
  }
  const held = new Set(cart.vouchers.map((voucher) => voucher.code));
  for (const code of await ctx.store.repos.carts.voucherCodes(order.cartId)) {
    if (held.has(code)) continue;
    const answer = await upstream.post(`/carts/${encodeURIComponent(cartId)}/vouchers`, { code }, { repeatable: true });
    if (answer.status !== 200) return refused(answer);
  }
  return undefined;
}

/**
 * The order was cancelled here before it was known upstream. Nothing was checked out without a cart, and a
 * cart still held upstream was never checked out: nothing to send (the cart is given back). A cart that
 * became an order there (a checkout whose answer was lost) answers CART_ALREADY_ORDERED: that order is
 * recorded, and the cancellation behind it cancels it upstream.
 */
async function cancelledHere(upstream: Channel, entry: OutboxRow): Promise<Delivery> {
  // Sent to a hub's import before, and the upstream is no hub now: only staff can tell whether it is there.
  if (entry.sentAt !== null) {
    return { kind: 'conflict', code: 'SENT_TO_FORMER_HUB', message: 'Cancelled here after it was sent to a hub that is no longer the upstream: check whether the order is there.' };
  }
  if (entry.upstreamCartId === null) return { kind: 'delivered', upstreamOrderId: null };
  const path = `/carts/${encodeURIComponent(entry.upstreamCartId)}`;
  const read = await upstream.get(path);
  if (read.status !== 200) return refused(read);
  await upstream.delete(path);
  return { kind: 'delivered', upstreamOrderId: null };
}

async function deliverCancel(ctx: Storage, upstream: Channel, entry: OutboxRow): Promise<Delivery> {
  const placed = await ctx.store.repos.outbox.orderEntry(entry.orderId);
  if (placed?.state === 'pending') return { kind: 'retry', reason: 'the order itself has not reached the upstream yet', afterSteps: 1 };
  // An order that never reached the upstream (a resolved conflict) has nothing there to cancel.
  if (!placed?.upstreamOrderId) return { kind: 'delivered', upstreamOrderId: null };
  const answer = await upstream.post(`/orders/${encodeURIComponent(placed.upstreamOrderId)}/cancel`, {}, { repeatable: true });
  if (answer.status === 200) return { kind: 'delivered', upstreamOrderId: placed.upstreamOrderId };
  const refusal = refused(answer);
  if (refusal.kind !== 'conflict' || refusal.code !== 'RESOURCE_NOT_FOUND') return refusal;
  return { ...refusal, message: cancelNotFound(placed.upstreamOrderId) };
}

/**
 * A 404 to a cancel: the upstream holds the order (it answered its import) but not for this key — most often a
 * sync key replaced by a new one (`keys create`) instead of `keys replace`, which keeps the terminal's owner.
 */
const cancelNotFound = (upstreamOrderId: string): string =>
  `The upstream does not show order ${upstreamOrderId} to this terminal's sync key, so the cancellation did not reach it ` +
  "and the order may still be confirmed there. Was the sync key replaced with 'keys create' instead of 'keys replace'? " +
  'Cancel the order at the upstream (its box office), then mark this conflict resolved.';
