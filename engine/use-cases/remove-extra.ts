import type { Cart } from '../contract/cart';
import { liveCart } from './cart-access';
import { cartView } from './cart-view';
import type { EngineContext } from './context';
import { extraLine } from './extras';

/** DELETE /carts/{id}/items/{itemId}: idempotent; a line the cart does not hold leaves the cart as it is. */
export async function removeExtra(ctx: EngineContext, cartId: string, itemId: string): Promise<Cart> {
  const now = ctx.now();
  return await ctx.store.transaction(async (tx) => {
    const cart = await liveCart(tx, cartId, now);
    if (extraLine(await tx.carts.lines(cart.id), itemId)) await tx.carts.deleteLine(cart.id, itemId);
    return cartView(tx, cart, now);
  });
}
