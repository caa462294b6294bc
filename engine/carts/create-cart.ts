import { planCart, resolveOccurrence } from '../domain/cart-rules';
import { usesCart, type Caller } from '../domain/scopes';
import type { Cart, CreateCartBody } from '../contract/cart';
import { consumeAllocation, limitToHoldings, withAllocation } from '../allocations/allocation-share';
import { cartView } from './cart-view';
import type { EngineContext } from '../shared/context';
import type { Tx } from '../store/port';
import { locationOf, priceContextFor } from '../catalog/price-context';

/**
 * POST /carts: checks the items, holds their stock and prices the cart, in one transaction. A
 * `previousCartId` that still holds stock is released first inside the same transaction, so a customer
 * changing seats may keep some of them; if the new cart fails, the rollback leaves the old one holding.
 * An unknown, expired or ordered previous cart is left alone (best effort, never an error).
 * `caller` (the calling API key): the cart belongs to it (store/cart-repo.ts), a `previousCartId` of another key is
 * left alone as if unknown, and at a hub a terminal's cart takes from its allocation (its owner's) first. None for the v1
 * facade's carts, which belong to no key.
 */
export async function createCart(ctx: EngineContext, body: CreateCartBody, caller?: Caller): Promise<Cart> {
  return ctx.store.transaction(async (tx) => createCartIn(ctx, tx, body, caller));
}

/** createCart inside the caller's transaction (an import composes several in one). */
export async function createCartIn(ctx: EngineContext, tx: Tx, body: CreateCartBody, caller?: Caller): Promise<Cart> {
  const now = ctx.now();
  const terminalId = caller?.owner;
  const occurrenceIds = [...new Set(body.items.map((item) => item.occurrenceId))];
  const occurrence = resolveOccurrence(body.items, await tx.catalog.occurrences(occurrenceIds));
  const location = await locationOf(tx, occurrence.locationId);
  const pricing = await priceContextFor(tx, location, body.currency, now);

  await tx.carts.releaseExpired(now);
  await tx.allocations.lapse(now);
  if (body.previousCartId !== undefined) await releasePrevious(tx, body.previousCartId, now, caller);

  // the places this cart takes, locked before their stock is read (store/port.ts Locks)
  await tx.locks.inventory(occurrence.id, [...new Set(body.items.map((item) => item.inventoryItemId))].sort());
  const plan = planCart(body.items, occurrence, {
    occurrences: new Map([[occurrence.id, occurrence]]),
    inventory: await limitToHoldings(
      ctx,
      tx,
      occurrence.id,
      await withAllocation(tx, terminalId, occurrence.id, await tx.catalog.inventory(occurrence.id, body.items.map((item) => item.inventoryItemId))),
      now,
    ),
    priceOptions: await tx.catalog.priceOptions(occurrence.id, body.items.map((item) => item.priceOptionId)),
  });
  const cart = {
    id: ctx.newId('crt'),
    occurrenceId: occurrence.id,
    eventId: occurrence.eventId,
    locationId: location.id,
    kind: occurrence.kind,
    currency: pricing.currency,
    createdAt: now,
    expiresAt: now + ctx.holdMs,
  };
  await consumeAllocation(tx, terminalId, occurrence.id, plan.holds);
  const lines = plan.lines.map((line) => ({ ...line, id: ctx.newId('itm') }));
  await tx.carts.insert(cart, lines, plan.holds, terminalId);
  // the location, price context and lines this cart was just made with, not read back
  return cartView(tx, { ...cart, status: 'held', orderId: null }, now, undefined, { location, context: pricing, lines }, 'items');
}

async function releasePrevious(tx: Tx, cartId: string, now: number, caller: Caller | undefined): Promise<void> {
  await tx.locks.cart(cartId);
  const owner = await tx.carts.owner(cartId);
  if (caller && owner && !usesCart(caller, owner.owner)) return;
  const previous = await tx.carts.get(cartId);
  if (previous?.status === 'held' && previous.expiresAt > now && !(await tx.checkout.pendingForCart(cartId))) await tx.carts.release(cartId, 'released');
}
