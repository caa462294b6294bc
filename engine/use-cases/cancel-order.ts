import { EngineError } from '../domain/errors';
import { refundNeedsProvider } from '../domain/payment-attempt';
import type { Order, PaymentView } from '../contract/order';
import { immediate } from '../store/db';
import type { EngineContext } from './context';
import { orderViews } from './order-view';
import { confirmRefund, refundAttempt } from './refund-payment';

/**
 * POST /orders/{id}/cancel (contract §4): the seats go back on sale, voucher redemptions are given back,
 * gift cards are voided and the payment is refunded. Cancelling a cancelled order changes nothing.
 *
 * A card payment reads `refunding` until the provider confirms the refund; the answer comes after one
 * try (within the provider deadline), and when the provider has not confirmed by then the sweeper asks
 * again until it does. Cash, external and zero payments are refunded at once.
 */
export async function cancelOrder(ctx: EngineContext, orderId: string): Promise<Order> {
  const now = ctx.now();
  const { refund } = immediate(ctx.db, () => {
    const order = ctx.orders.get(orderId);
    if (!order) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'orderId' });
    const attempt = ctx.checkout.attemptForOrder(order.id);
    if (order.status === 'cancelled') return { refund: attempt?.state === 'refunding' ? attempt.id : undefined };
    const paid = JSON.parse(order.payment) as PaymentView;
    const viaProvider = attempt !== undefined && refundNeedsProvider(attempt.method);
    const payment: PaymentView = viaProvider ? { ...paid, status: 'refunding' } : { ...paid, status: 'refunded', refundedAt: new Date(now).toISOString() };
    ctx.orders.cancel(order, now, payment);
    if (ctx.syncing) ctx.outbox.add('cancel', order.id, now);
    if (!attempt) return { refund: undefined };
    ctx.checkout.releaseVouchers(attempt.id);
    ctx.checkout.move(attempt.id, { type: 'cancelled' });
    if (!viaProvider) confirmRefund(ctx, attempt.id, now);
    return { refund: viaProvider ? attempt.id : undefined };
  });
  if (refund !== undefined) await refundAttempt(ctx, refund);
  return readOrder(ctx, orderId);
}

export function readOrder(ctx: EngineContext, orderId: string): Order {
  const row = ctx.orders.get(orderId);
  const [order] = row ? orderViews(ctx, [row]) : [];
  if (!order) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'orderId' });
  return order;
}
