import type { Cart } from '../contract/cart';
import { liveCart } from './cart-access';
import { cartView } from './cart-view';
import type { Clock, Storage } from '../shared/context';

/** GET /carts/{id}: `currency` prices this answer only; the cart keeps its own currency. */
export async function readCart(ctx: Storage & Clock, cartId: string, currency: string | undefined): Promise<Cart> {
  const now = ctx.now();
  return ctx.store.transaction(async (tx) => cartView(tx, await liveCart(tx, cartId, now, false), now, currency, undefined, currency === undefined ? undefined : 'currency'), { readOnly: true });
}
