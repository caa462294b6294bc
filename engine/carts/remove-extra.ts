import type { Cart } from '../contract/cart';
import { liveCart } from './cart-access';
import { cartView } from './cart-view';
import type { Clock, Storage } from '../shared/context';
import type { Tx } from '../store/port';
import { extraLine } from './extras';

/** DELETE /carts/{id}/items/{itemId}: idempotent; a line the cart does not hold leaves the cart as it is. */
export async function removeExtra(ctx: Storage & Clock, cartId: string, itemId: string): Promise<Cart> {
  return ctx.store.transaction(async (tx) => removeExtraIn(ctx, tx, cartId, itemId));
}

/** removeExtra inside the caller's transaction (the v1 facade composes several in one). */
export async function removeExtraIn(ctx: Clock, tx: Tx, cartId: string, itemId: string): Promise<Cart> {
  const now = ctx.now();
  const cart = await liveCart(tx, cartId, now);
  if (extraLine(await tx.carts.lines(cart.id), itemId)) await tx.carts.deleteLine(cart.id, itemId);
  return cartView(tx, cart, now);
}
