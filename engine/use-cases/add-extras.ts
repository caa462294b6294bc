import { EngineError } from '../domain/errors';
import type { AddExtrasBody, Cart } from '../contract/cart';
import { immediate } from '../store/db';
import { liveCart } from './cart-access';
import { cartView } from './cart-view';
import type { EngineContext } from './context';
import { offeredExtras, requireWithin } from './extras';

/** POST /carts/{id}/items: adds extras the event offers; an extra already in the cart grows its line. */
export function addExtras(ctx: EngineContext, cartId: string, body: AddExtrasBody): Cart {
  const now = ctx.now();
  return immediate(ctx.db, () => {
    const cart = liveCart(ctx, cartId, now);
    const offered = offeredExtras(ctx, cart);
    const lines = ctx.carts.lines(cart.id);
    const wanted = new Map<string, number>();
    body.items.forEach((item, index) => {
      const extra = offered.get(item.extraId);
      if (!extra) throw new EngineError('INVALID_FIELD_VALUE', { param: `items[${index}].extraId`, details: { reason: 'extra_not_offered' } });
      const existing = lines.find((line) => line.extraId === item.extraId)?.quantity ?? 0;
      const quantity = (wanted.get(item.extraId) ?? existing) + item.quantity;
      requireWithin(quantity, extra, `items[${index}].quantity`);
      wanted.set(item.extraId, quantity);
    });
    for (const [extraId, quantity] of wanted) {
      const line = lines.find((candidate) => candidate.extraId === extraId);
      const extra = offered.get(extraId);
      if (line) ctx.carts.setQuantity(cart.id, line.id, quantity);
      else if (extra) ctx.carts.addLine(cart.id, { id: ctx.newId('itm'), type: 'extra', name: extra.name, quantity, baseUnitPrice: extra.price, extraId });
    }
    return cartView(ctx, cart, now, undefined, undefined, 'items');
  });
}
