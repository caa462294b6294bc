import { refundNeedsProvider } from '../domain/payment-attempt';
import type { PaymentView } from '../contract/order';
import type { EngineContext } from '../shared/context';
import type { Tx } from '../store/port';

/**
 * Gives back the money of an attempt in `refunding`. A card refund is asked of the provider (idempotent per
 * reference, so asking again after a crash or a lost answer refunds nothing twice); the attempt and its
 * order are marked refunded only once the provider has confirmed. Returns whether it is refunded now; when
 * not, the attempt stays `refunding` and the sweeper and the next start ask again.
 */
export async function refundAttempt(ctx: EngineContext, attemptId: string): Promise<boolean> {
  const attempt = await ctx.store.repos.checkout.attempt(attemptId);
  if (attempt?.state !== 'refunding') return attempt?.state === 'refunded';
  if (refundNeedsProvider(attempt.method)) {
    try {
      // the attempt's `refunding` is on the disk before the provider hears of it: a refund a restart can find
      await ctx.whenDurable();
      await ctx.payments.refund(attemptId);
    } catch {
      return false; // no confirmation (deadline, lost answer): still refunding, asked again by the sweeper
    }
  }
  await ctx.store.transaction(async (tx) => confirmRefund(tx, attemptId, ctx.now()));
  return true;
}

/** The refund is confirmed: the attempt is refunded, and so is its order's payment. In the caller's transaction. */
export async function confirmRefund(tx: Tx, attemptId: string, now: number): Promise<void> {
  await tx.locks.attempt(attemptId);
  const attempt = await tx.checkout.attempt(attemptId);
  if (attempt?.state !== 'refunding') return;
  await tx.checkout.move(attemptId, { type: 'refund_confirmed' });
  const order = attempt.orderId === null ? undefined : await tx.orders.get(attempt.orderId);
  if (!order) return;
  const payment: PaymentView = { ...(JSON.parse(order.payment) as PaymentView), status: 'refunded', refundedAt: new Date(now).toISOString() };
  await tx.orders.setPayment(order.id, payment);
}
