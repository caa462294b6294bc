import { planCart, resolveOccurrence } from '../domain/cart-rules';
import { usesCart, type Caller } from '../domain/scopes';
import type { Cart, CreateCartBody } from '../contract/cart';
import { immediate } from '../store/db';
import { consumeAllocation, limitToHoldings, withAllocation } from './allocation-share';
import { cartView } from './cart-view';
import type { EngineContext } from './context';
import { locationOf, priceContextFor } from './price-context';

/**
 * POST /carts: checks the items, holds their stock and prices the cart, in one transaction. A
 * `previousCartId` that still holds stock is released first inside the same transaction, so a customer
 * changing seats may keep some of them; if the new cart fails, the rollback leaves the old one holding.
 * An unknown, expired or ordered previous cart is left alone (best effort, never an error).
 * `caller` (the calling API key): the cart belongs to it (store/cart-repo.ts), a `previousCartId` of another key is
 * left alone as if unknown, and at a hub a terminal's cart takes from its allocation (its owner's) first. None for the v1
 * facade's carts, which belong to no key.
 */
export function createCart(ctx: EngineContext, body: CreateCartBody, caller?: Caller): Cart {
  const now = ctx.now();
  const terminalId = caller?.owner;
  return immediate(ctx.db, () => {
    const occurrenceIds = [...new Set(body.items.map((item) => item.occurrenceId))];
    const occurrence = resolveOccurrence(body.items, ctx.catalog.occurrences(occurrenceIds));
    const location = locationOf(ctx, occurrence.locationId);
    const pricing = priceContextFor(ctx, location, body.currency, now);

    ctx.carts.releaseExpired(now);
    ctx.allocations.lapse(now);
    if (body.previousCartId !== undefined) releasePrevious(ctx, body.previousCartId, now, caller);

    const plan = planCart(body.items, occurrence, {
      occurrences: new Map([[occurrence.id, occurrence]]),
      inventory: limitToHoldings(
        ctx,
        occurrence.id,
        withAllocation(ctx, terminalId, occurrence.id, ctx.catalog.inventory(occurrence.id, body.items.map((item) => item.inventoryItemId))),
        now,
      ),
      priceOptions: ctx.catalog.priceOptions(occurrence.id, body.items.map((item) => item.priceOptionId)),
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
    consumeAllocation(ctx, terminalId, occurrence.id, plan.holds);
    const lines = plan.lines.map((line) => ({ ...line, id: ctx.newId('itm') }));
    ctx.carts.insert(cart, lines, plan.holds, terminalId);
    // the location, price context and lines this cart was just made with, not read back
    return cartView(ctx, { ...cart, status: 'held', orderId: null }, now, undefined, { location, context: pricing, lines }, 'items');
  });
}

function releasePrevious(ctx: EngineContext, cartId: string, now: number, caller: Caller | undefined): void {
  const owner = ctx.carts.owner(cartId);
  if (caller && owner && !usesCart(caller, owner.owner)) return;
  const previous = ctx.carts.get(cartId);
  if (previous?.status === 'held' && previous.expiresAt > now && !ctx.checkout.pendingForCart(cartId)) ctx.carts.release(cartId, 'released');
}
