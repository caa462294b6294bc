import type { Cart } from '../contract/cart';
import { liveCart } from './cart-access';
import { cartView } from './cart-view';
import type { Clock, Storage } from '../shared/context';
import { locationOf, priceContextFor } from '../catalog/price-context';

/** PATCH /carts/{id}: the cart's own currency changes only when it can be priced in it now. */
export async function switchCurrency(ctx: Storage & Clock, cartId: string, currency: string): Promise<Cart> {
  const now = ctx.now();
  return await ctx.store.transaction(async (tx) => {
    const cart = await liveCart(tx, cartId, now);
    await priceContextFor(tx, await locationOf(tx, cart.locationId), currency, now);
    await tx.carts.setCurrency(cart.id, currency);
    return cartView(tx, { ...cart, currency }, now, undefined, undefined, 'currency');
  });
}
