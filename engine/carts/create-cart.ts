import { planCart, resolveOccurrence } from '../domain/cart-rules';
import { usesCart, type Caller } from '../domain/scopes';
import type { Cart, CreateCartBody } from '../contract/cart';
import { consumeAllocation, limitToHoldings, withAllocation } from '../allocations/allocation-share';
import { cartView } from './cart-view';
import type { Clock, HoldLength, Ids, Storage, Syncing, TerminalRole } from '../shared/context';
import type { Tx } from '../store/port';
import type { CartRow } from '../store/cart-repo';
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
export async function createCart(ctx: Storage & Clock & Ids & HoldLength & Syncing & TerminalRole, body: CreateCartBody, caller?: Caller): Promise<Cart> {
  return ctx.store.transaction(async (tx) => createCartIn(ctx, tx, body, caller));
}

/** createCart inside the caller's transaction (an import composes several in one). */
export async function createCartIn(ctx: Clock & Ids & HoldLength & Syncing & TerminalRole, tx: Tx, body: CreateCartBody, caller?: Caller): Promise<Cart> {
  const now = ctx.now();
  const terminalId = caller?.owner;
  const occurrenceIds = [...new Set(body.items.map((item) => item.occurrenceId))];
  const occurrence = resolveOccurrence(body.items, await tx.catalog.occurrences(occurrenceIds));
  const location = await locationOf(tx, occurrence.locationId);
  const pricing = await priceContextFor(tx, location, body.currency, now);

  // Locks in the one order (store/port.ts): the previous cart, then every place this request touches — the
  // previous cart's and the new one's together, per show in id order — before any stock is read or moved. Two
  // customers swapping seats in opposite directions then queue instead of deadlocking.
  const previous = body.previousCartId === undefined ? undefined : await previousCart(tx, body.previousCartId, caller);
  for (const [occurrenceId, items] of placesTouched(occurrence.id, body.items, previous)) await tx.locks.inventory(occurrenceId, items);
  await tx.carts.releaseExpired(now);
  await tx.allocations.lapse(now);
  if (previous) await releasePrevious(tx, previous.cart, now);

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

interface PreviousCart {
  readonly cart: CartRow;
  readonly places: readonly string[];
}

/** The previous cart of the caller (locked), with the places it holds; none when unknown or another key's. */
async function previousCart(tx: Tx, cartId: string, caller: Caller | undefined): Promise<PreviousCart | undefined> {
  await tx.locks.cart(cartId);
  const owner = await tx.carts.owner(cartId);
  if (caller && owner && !usesCart(caller, owner.owner)) return undefined;
  const cart = await tx.carts.get(cartId);
  if (!cart) return undefined;
  const places = (await tx.carts.lines(cartId)).flatMap((line) => (line.inventoryItemId === undefined ? [] : [line.inventoryItemId]));
  return { cart, places };
}

/** Per show, in id order (shows too), the places a new cart and the cart it replaces hold. */
function placesTouched(occurrenceId: string, items: CreateCartBody['items'], previous: PreviousCart | undefined): [string, string[]][] {
  const byShow = new Map<string, Set<string>>([[occurrenceId, new Set(items.map((item) => item.inventoryItemId))]]);
  if (previous) {
    const set = byShow.get(previous.cart.occurrenceId) ?? new Set<string>();
    for (const place of previous.places) set.add(place);
    byShow.set(previous.cart.occurrenceId, set);
  }
  const inOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...byShow].sort(([a], [b]) => inOrder(a, b)).map(([show, places]) => [show, [...places].sort(inOrder)]);
}

async function releasePrevious(tx: Tx, previous: CartRow, now: number): Promise<void> {
  if (previous.status === 'held' && previous.expiresAt > now && !(await tx.checkout.pendingForCart(previous.id))) await tx.carts.release(previous.id, 'released');
}
