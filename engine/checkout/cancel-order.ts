import { EngineError } from '../domain/errors';
import type { Order } from '../contract/order';
import type { Clock, Durability, Payments, ShiftRule, Storage, Syncing } from '../shared/context';
import { readOrder } from '../orders/read-order';
import { cancelAttempt, lockAttemptGiftCards, refundAttempt, voidIssuedGiftCards } from './payments/lifecycle';

/**
 * POST /orders/{id}/cancel (contract §4, §13): the seats go back on sale, voucher redemptions are given back,
 * gift cards it issued are voided (409 GIFT_CARD_ALREADY_USED when one was spent), the gift-card parts of its
 * payment go back onto their cards at once and the rest is refunded. Cancelling a cancelled order changes nothing.
 *
 * A card payment reads `refunding` until the provider confirms the refund; the answer comes after one
 * try (within the provider deadline), and when the provider has not confirmed by then the sweeper asks
 * again until it does. Cash, external and zero payments are refunded at once. With `--require-shift`, an order
 * with a cash part is not cancelled while no shift is open (409 SHIFT_NOT_OPEN): its cash leaves a drawer.
 */
export async function cancelOrder(ctx: Storage & Clock & Syncing & Durability & Payments & ShiftRule, orderId: string): Promise<Order> {
  const now = ctx.now();
  const { refund } = await ctx.store.transaction(async (tx) => {
    await tx.locks.order(orderId);
    const order = await tx.orders.get(orderId);
    if (!order) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'orderId' });
    const found = await tx.checkout.attemptForOrder(order.id);
    if (found) await tx.locks.attempt(found.id);
    const attempt = found && (await tx.checkout.attempt(found.id));
    if (order.status === 'cancelled') return { refund: attempt?.state === 'refunding' ? attempt.id : undefined };
    // --require-shift (contract §14): cash given back only while a shift is open (nothing changed yet)
    if (ctx.requireShift && attempt?.method === 'cash' && attempt.amount > 0 && (await tx.shifts.openId()) === undefined) throw new EngineError('SHIFT_NOT_OPEN');
    // the cards it paid with and issued, before its seats (inventory) and vouchers: the documented lock order
    await lockAttemptGiftCards(tx, attempt, order.id);
    // gift cards it issued are voided, or 409 GIFT_CARD_ALREADY_USED when one was spent (nothing changes then)
    await voidIssuedGiftCards(tx, order.id, now);
    // the order's payment is derived from its attempt (refunding, or refunded at once), not written here
    await tx.orders.cancel(order, now);
    if (ctx.syncing) await tx.outbox.add('cancel', order.id, now);
    if (!attempt) return { refund: undefined };
    await tx.checkout.releaseVouchers(attempt.id);
    const { viaProvider } = await cancelAttempt(tx, attempt, now);
    return { refund: viaProvider ? attempt.id : undefined };
  });
  if (refund !== undefined) await refundAttempt(ctx, refund);
  return readOrder(ctx, orderId);
}
