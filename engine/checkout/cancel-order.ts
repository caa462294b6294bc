import { EngineError } from '../domain/errors';
import type { Order } from '../contract/order';
import type { CartRow } from '../store/cart-repo';
import type { AttemptRow } from '../store/checkout-repo';
import type { Tx } from '../store/port';
import type { Clock, Durability, Journalling, Payments, ShiftRule, Storage, Syncing } from '../shared/context';
import type { StoredPayment } from './checkout-begin';
import { journalCancellation } from './journal-entries';
import { orderViews } from '../orders/order-view';
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
 *
 * The cancellation is journalled in its transaction (contract §14) — unless it is a terminal's own cancellation of
 * an order it imported here (`by`, the caller's owner, owns it: the terminal, under the key that imported it or the
 * one `keys replace` made of it): that one is in the terminal's journal, which reaches this hub by sync. A
 * cancellation made here of an imported order is journalled here.
 */
export async function cancelOrder(ctx: Storage & Clock & Syncing & Durability & Payments & Journalling & ShiftRule, orderId: string, by?: string): Promise<Order> {
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
    const cashBack = ctx.requireShift && attempt?.method === 'cash' && attempt.amount > 0;
    if (cashBack && (await tx.shifts.openId()) === undefined) throw new EngineError('SHIFT_NOT_OPEN');
    // the cards it paid with and issued, before its seats (inventory) and vouchers: the documented lock order
    await lockAttemptGiftCards(tx, attempt, order.id);
    const imported = attempt !== undefined && (JSON.parse(attempt.request) as StoredPayment).imported === true
      && by !== undefined && (await tx.orders.owner(order.id))?.owner === by;
    // the order as it was sold (its payment captured), for the journal's entry
    const [sold] = ctx.journal && !imported ? await orderViews(tx, [order]) : [];
    // gift cards it issued are voided, or 409 GIFT_CARD_ALREADY_USED when one was spent (nothing changes then)
    await voidIssuedGiftCards(tx, order.id, now);
    // the order's payment is derived from its attempt (refunding, or refunded at once), not written here
    await tx.orders.cancel(order, now);
    // its tickets are revoked: gates learn it with the catalog and refuse them offline too (issue #26, contract §15)
    await tx.revocations.revokeOrder(order.id, new Date(now).toISOString());
    if (ctx.syncing) await tx.outbox.add('cancel', order.id, now);
    const { viaProvider } = attempt ? await releaseAndCancel(tx, attempt, now) : { viaProvider: false };
    if (sold) await journalCancellation(tx, sold, await cartOf(tx, order.cartId), now);
    // again under the journal head's lock, which the entry took: a close that committed since the check above is
    // seen now, and the refund is not journalled into no shift (all of it rolls back)
    if (cashBack && sold && (await tx.shifts.openId()) === undefined) throw new EngineError('SHIFT_NOT_OPEN');
    return { refund: viaProvider && attempt ? attempt.id : undefined };
  });
  if (refund !== undefined) await refundAttempt(ctx, refund);
  return readOrder(ctx, orderId);
}

async function releaseAndCancel(tx: Tx, attempt: AttemptRow, now: number): Promise<{ readonly viaProvider: boolean }> {
  await tx.checkout.releaseVouchers(attempt.id);
  return cancelAttempt(tx, attempt, now);
}

async function cartOf(tx: Tx, cartId: string): Promise<CartRow> {
  const cart = await tx.carts.get(cartId);
  if (!cart) throw new Error(`cart ${cartId} of an order is missing`);
  return cart;
}
