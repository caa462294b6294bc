import { EngineError } from '../domain/errors';
import { immediate } from '../store/db';
import type { EngineContext } from './context';

/**
 * DELETE /carts/{id} (spec §4.4): releases the hold; deleting again is a no-op (204); a cart that timed
 * out or was replaced answers 410; one that became an order answers 409.
 */
export function deleteCart(ctx: EngineContext, cartId: string): void {
  const now = ctx.now();
  immediate(ctx.db, () => {
    const cart = ctx.carts.get(cartId);
    if (!cart) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'cartId' });
    if (cart.status === 'ordered') throw new EngineError('CART_ALREADY_ORDERED', { details: { orderId: cart.orderId } });
    if (cart.status === 'deleted') return;
    if (cart.status !== 'held' || cart.expiresAt <= now) throw new EngineError('CART_EXPIRED');
    if (ctx.checkout.pendingForCart(cart.id)) throw new EngineError('CART_CHECKOUT_IN_PROGRESS');
    ctx.carts.release(cart.id, 'deleted');
  });
}
