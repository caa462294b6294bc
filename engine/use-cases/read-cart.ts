import type { Cart } from '../contract/cart';
import { liveCart } from './cart-access';
import { cartView } from './cart-view';
import type { EngineContext } from './context';

/** GET /carts/{id}: `currency` prices this answer only; the cart keeps its own currency. */
export function readCart(ctx: EngineContext, cartId: string, currency: string | undefined): Cart {
  const now = ctx.now();
  return ctx.db.transaction(() => cartView(ctx, liveCart(ctx, cartId, now, false), now, currency, undefined, currency === undefined ? undefined : 'currency'))();
}
