import { EngineError } from '../domain/errors';
import { seesOrder, usesCart, type Caller } from '../domain/scopes';
import type { Storage } from './context';

/**
 * Ownership (issue #22): a key reads, changes and deletes only its own carts, and reads, prints and cancels
 * only its own orders unless `orders:any` grants every order. Another key's cart or order answers exactly what
 * an unknown one does — 404 RESOURCE_NOT_FOUND — so that a key learns nothing of what others hold. Unknown ids
 * pass: the use case behind answers its own 404.
 */
export async function checkCartAccess(ctx: Storage, cartId: string, caller: Caller): Promise<void> {
  const row = await ctx.store.repos.carts.owner(cartId);
  if (row && !usesCart(caller, row.owner)) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'cartId' });
}

export async function checkOrderAccess(ctx: Storage, orderId: string, caller: Caller): Promise<void> {
  const row = await ctx.store.repos.orders.owner(orderId);
  if (row && !seesOrder(caller, row.owner)) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'orderId' });
}

/** The owner whose orders a list shows: undefined for a key that sees every order. */
export function listedOwner(caller: Caller): string | undefined {
  return seesOrder(caller, null) ? undefined : caller.owner;
}

/** Whether the caller sees that order (a print job of another key's order is not found either). */
export async function seesOrderOf(ctx: Storage, orderId: string, caller: Caller): Promise<boolean> {
  return seesOrder(caller, (await ctx.store.repos.orders.owner(orderId))?.owner ?? null);
}
