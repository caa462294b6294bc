import { EngineError } from '../domain/errors';
import type { Cart } from '../contract/cart';
import { liveCart } from './cart-access';
import { cartView } from './cart-view';
import type { Clock, Storage } from '../shared/context';
import type { Tx } from '../store/port';
import { extraLine, offeredExtras, requireWithin } from './extras';

/** PATCH /carts/{id}/items/{itemId}: holds more or fewer of an extra; 404 when the cart holds no such line. */
export async function changeExtra(ctx: Storage & Clock, cartId: string, itemId: string, quantity: number): Promise<Cart> {
  return ctx.store.transaction(async (tx) => changeExtraIn(ctx, tx, cartId, itemId, quantity));
}

/** changeExtra inside the caller's transaction (the v1 facade composes several in one). */
export async function changeExtraIn(ctx: Clock, tx: Tx, cartId: string, itemId: string, quantity: number): Promise<Cart> {
  const now = ctx.now();
  const cart = await liveCart(tx, cartId, now);
  const line = extraLine(await tx.carts.lines(cart.id), itemId);
  if (!line) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'itemId' });
  requireWithin(quantity, line.extraId === undefined ? undefined : (await offeredExtras(tx, cart)).get(line.extraId), 'quantity');
  await tx.carts.setQuantity(cart.id, line.id, quantity);
  return cartView(tx, cart, now, undefined, undefined, 'quantity');
}
