import { EngineError } from '../domain/errors';
import type { CartRow } from '../store/cart-repo';
import type { Tx } from '../store/port';

/**
 * The cart named in the path, if it still holds its stock (spec §3 rules 1 and 2). A change to a cart whose
 * payment is under way would change what is being paid for, so `forChange` refuses it with 409.
 */
export async function liveCart(tx: Pick<Tx, 'carts' | 'checkout' | 'locks'>, cartId: string, now: number, forChange = true): Promise<CartRow> {
  // a change decides on the cart as it is: one process at a time (store/port.ts Locks)
  if (forChange) await tx.locks.cart(cartId);
  const cart = await tx.carts.get(cartId);
  if (!cart) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'cartId' });
  if (cart.status === 'ordered') throw new EngineError('CART_ALREADY_ORDERED', { details: { orderId: cart.orderId } });
  if (cart.status !== 'held' || cart.expiresAt <= now) {
    throw new EngineError('CART_EXPIRED', { details: { expiredAt: new Date(Math.min(cart.expiresAt, now)).toISOString() } });
  }
  if (forChange && (await tx.checkout.pendingForCart(cart.id))) throw new EngineError('CART_CHECKOUT_IN_PROGRESS');
  return cart;
}
