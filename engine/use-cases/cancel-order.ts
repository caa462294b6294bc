import { EngineError } from '../domain/errors';
import type { Order, PaymentView } from '../contract/order';
import { immediate } from '../store/db';
import type { EngineContext } from './context';
import { orderViews } from './order-view';

/**
 * POST /orders/{id}/cancel (contract §4): the seats go back on sale, voucher redemptions are given back,
 * gift cards are voided and the payment is refunded. Cancelling a cancelled order changes nothing.
 */
export async function cancelOrder(ctx: EngineContext, orderId: string): Promise<Order> {
  const now = ctx.now();
  const { refund } = immediate(ctx.db, () => {
    const order = ctx.orders.get(orderId);
    if (!order) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'orderId' });
    if (order.status === 'cancelled') return { refund: undefined };
    const payment = { ...(JSON.parse(order.payment) as PaymentView), status: 'refunded', refundedAt: new Date(now).toISOString() };
    ctx.orders.cancel(order, now, payment);
    if (ctx.syncing) ctx.outbox.add('cancel', order.id, now);
    const attempt = ctx.checkout.attemptForOrder(order.id);
    if (!attempt) return { refund: undefined };
    ctx.checkout.releaseVouchers(attempt.id);
    ctx.checkout.setAttempt(attempt.id, attempt.method === 'card' ? 'refunding' : 'refunded');
    return { refund: attempt.method === 'card' ? attempt.id : undefined };
  });
  if (refund !== undefined) {
    await ctx.payments.refund(refund);
    immediate(ctx.db, () => ctx.checkout.setAttempt(refund, 'refunded'));
  }
  return readOrder(ctx, orderId);
}

export function readOrder(ctx: EngineContext, orderId: string): Order {
  const row = ctx.orders.get(orderId);
  const [order] = row ? orderViews(ctx, [row]) : [];
  if (!order) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'orderId' });
  return order;
}
