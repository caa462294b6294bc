import type { Cart } from '../contract/cart';
import { immediate } from '../store/db';
import { liveCart } from './cart-access';
import { cartView } from './cart-view';
import type { EngineContext } from './context';
import { extraLine } from './extras';

/** DELETE /carts/{id}/items/{itemId}: idempotent; a line the cart does not hold leaves the cart as it is. */
export function removeExtra(ctx: EngineContext, cartId: string, itemId: string): Cart {
  const now = ctx.now();
  return immediate(ctx.db, () => {
    const cart = liveCart(ctx, cartId, now);
    if (extraLine(ctx.carts.lines(cart.id), itemId)) ctx.carts.deleteLine(cart.id, itemId);
    return cartView(ctx, cart, now);
  });
}
