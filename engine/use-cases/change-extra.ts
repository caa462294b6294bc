import { EngineError } from '../domain/errors';
import type { Cart } from '../contract/cart';
import { immediate } from '../store/db';
import { liveCart } from './cart-access';
import { cartView } from './cart-view';
import type { EngineContext } from './context';
import { extraLine, offeredExtras, requireWithin } from './extras';

/** PATCH /carts/{id}/items/{itemId}: holds more or fewer of an extra; 404 when the cart holds no such line. */
export function changeExtra(ctx: EngineContext, cartId: string, itemId: string, quantity: number): Cart {
  const now = ctx.now();
  return immediate(ctx.db, () => {
    const cart = liveCart(ctx, cartId, now);
    const line = extraLine(ctx.carts.lines(cart.id), itemId);
    if (!line) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'itemId' });
    requireWithin(quantity, line.extraId === undefined ? undefined : offeredExtras(ctx, cart).get(line.extraId), 'quantity');
    ctx.carts.setQuantity(cart.id, line.id, quantity);
    return cartView(ctx, cart, now, undefined, undefined, 'quantity');
  });
}
