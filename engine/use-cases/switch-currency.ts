import type { Cart } from '../contract/cart';
import { immediate } from '../store/db';
import { liveCart } from './cart-access';
import { cartView } from './cart-view';
import type { EngineContext } from './context';
import { locationOf, priceContextFor } from './price-context';

/** PATCH /carts/{id}: the cart's own currency changes only when it can be priced in it now. */
export function switchCurrency(ctx: EngineContext, cartId: string, currency: string): Cart {
  const now = ctx.now();
  return immediate(ctx.db, () => {
    const cart = liveCart(ctx, cartId, now);
    priceContextFor(ctx, locationOf(ctx, cart.locationId), currency, now);
    ctx.carts.setCurrency(cart.id, currency);
    return cartView(ctx, { ...cart, currency }, now, undefined, undefined, 'currency');
  });
}
