import { EngineError } from '../domain/errors';
import type { Clock, Storage } from '../shared/context';
import type { Tx } from '../store/port';

/**
 * DELETE /carts/{id} (spec §4.4): releases the hold; deleting again is a no-op (204); a cart that timed
 * out or was replaced answers 410; one that became an order answers 409; one whose payment is under way
 * answers 409 CART_CHECKOUT_IN_PROGRESS (the attempt settles within the provider deadline and one sweep).
 * A cart that is not paying can always be released by staff: one that timed out while a payment held it
 * gives its stock back here (and still answers 410).
 */
export async function deleteCart(ctx: Storage & Clock, cartId: string): Promise<void> {
  const refusal = await ctx.store.transaction(async (tx) => deleteCartIn(ctx, tx, cartId));
  if (refusal) throw refusal;
}

/**
 * deleteCart inside the caller's transaction: answers the refusal rather than throwing it, so that what it
 * wrote (an expired cart's seats given back) commits with the caller's transaction.
 */
export async function deleteCartIn(ctx: Clock, tx: Tx, cartId: string): Promise<EngineError | undefined> {
  const now = ctx.now();
  {
    await tx.locks.cart(cartId);
    const cart = await tx.carts.get(cartId);
    if (!cart) return new EngineError('RESOURCE_NOT_FOUND', { param: 'cartId' });
    if (cart.status === 'ordered') return new EngineError('CART_ALREADY_ORDERED', { details: { orderId: cart.orderId } });
    if (cart.status === 'deleted') return undefined;
    if (cart.status !== 'held') return new EngineError('CART_EXPIRED');
    if (await tx.checkout.pendingForCart(cart.id)) return new EngineError('CART_CHECKOUT_IN_PROGRESS');
    if (cart.expiresAt <= now) {
      await tx.carts.releaseExpired(now); // commits: the seats are back on sale
      return new EngineError('CART_EXPIRED');
    }
    await tx.carts.release(cart.id, 'deleted');
    return undefined;
  }
}
