import { EngineError } from '../domain/errors';
import type { AddExtrasBody, Cart } from '../contract/cart';
import { liveCart } from './cart-access';
import { cartView } from './cart-view';
import type { Clock, Ids, Storage } from '../shared/context';
import type { Tx } from '../store/port';
import { offeredExtras, requireWithin } from './extras';

/** POST /carts/{id}/items: adds extras the event offers; an extra already in the cart grows its line. */
export async function addExtras(ctx: Storage & Clock & Ids, cartId: string, body: AddExtrasBody): Promise<Cart> {
  return ctx.store.transaction(async (tx) => addExtrasIn(ctx, tx, cartId, body));
}

/** addExtras inside the caller's transaction (an import composes several in one). */
export async function addExtrasIn(ctx: Clock & Ids, tx: Tx, cartId: string, body: AddExtrasBody): Promise<Cart> {
  const now = ctx.now();
  const cart = await liveCart(tx, cartId, now);
  const offered = (await offeredExtras(tx, cart));
  const lines = await tx.carts.lines(cart.id);
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
    if (line) await tx.carts.setQuantity(cart.id, line.id, quantity);
    else if (extra) await tx.carts.addLine(cart.id, { id: ctx.newId('itm'), type: 'extra', name: extra.name, quantity, baseUnitPrice: extra.price, extraId });
  }
  return cartView(tx, cart, now, undefined, undefined, 'items');
}
