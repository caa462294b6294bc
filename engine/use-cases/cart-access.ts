import { EngineError } from '../domain/errors';
import type { CartRow } from '../store/cart-repo';
import type { Repos } from '../store/port';

/**
 * The cart named in the path, if it still holds its stock (spec §3 rules 1 and 2). A change to a cart whose
 * payment is under way would change what is being paid for, so `forChange` refuses it with 409.
 */
export async function liveCart(repos: Pick<Repos, 'carts' | 'checkout'>, cartId: string, now: number, forChange = true): Promise<CartRow> {
  const cart = await repos.carts.get(cartId);
  if (!cart) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'cartId' });
  if (cart.status === 'ordered') throw new EngineError('CART_ALREADY_ORDERED', { details: { orderId: cart.orderId } });
  if (cart.status !== 'held' || cart.expiresAt <= now) {
    throw new EngineError('CART_EXPIRED', { details: { expiredAt: new Date(Math.min(cart.expiresAt, now)).toISOString() } });
  }
  if (forChange && (await repos.checkout.pendingForCart(cart.id))) throw new EngineError('CART_CHECKOUT_IN_PROGRESS');
  return cart;
}
