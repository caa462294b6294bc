import { EngineError } from '../domain/errors';
import type { AddExtrasBody, Cart, CreateCartBody } from '../contract/cart';
import type { ReservationRequest, UpsertBasketBody } from './contract';
import type { Tx } from '../store/port';
import { addExtrasIn } from '../carts/add-extras';
import { liveCart } from '../carts/cart-access';
import { cartView } from '../carts/cart-view';
import { changeExtraIn } from '../carts/change-extra';
import type { Clock, HoldLength, Ids, Storage, Syncing, TerminalRole } from '../shared/context';
import { createCartIn } from '../carts/create-cart';
import { deleteCartIn } from '../carts/delete-cart';
import { readCart } from '../carts/read-cart';
import { removeExtra, removeExtraIn } from '../carts/remove-extra';
import { applyVoucher, applyVoucherIn } from '../carts/vouchers';
import { parseReference } from './mapping-table';

/**
 * The other direction of the v1 facade: a v1 request → calls of the v3 use cases (spec §9.1, contract §11).
 * No rule of its own: every check is the v3 use case's, so v1 inherits each rule v3 has or gains. What is
 * here is translation: references to cart ids, aggregateReferences to ids, a whole-basket upsert to the
 * v3 calls that make the cart hold it, and v3 error params (`items[2].quantity`) back to v1 paths.
 * Each v1 call is one transaction: a refused upsert changes nothing.
 */

/** what the v1 facade's use cases need: the v3 cart use cases' dependencies */
export type LegacyDeps = Storage & Clock & Ids & HoldLength & Syncing & TerminalRole;

export interface LegacyContext {
  readonly ctx: LegacyDeps;
}

export interface PlannedTicket {
  readonly index: number;
  readonly item: CreateCartBody['items'][number];
}
export interface PlannedExtra {
  readonly index: number;
  readonly extraId: string;
  readonly quantity: number;
}
export interface BasketPlan {
  readonly tickets: readonly PlannedTicket[];
  /** one per extra id, quantities of repeated ones summed (v3 keeps one line per extra) */
  readonly extras: readonly PlannedExtra[];
}

/** Knows whether an occurrence has this inventory item and price option; asked only for ambiguous references. */
export type CatalogProbe = (occurrenceId: string, inventoryItemId: string, priceOptionId: string) => boolean | Promise<boolean>;

/** The v3 items a v1 reservation list stands for. Pure, given the probe. */
export async function planBasket(reservations: readonly ReservationRequest[], probe: CatalogProbe): Promise<BasketPlan> {
  const tickets: PlannedTicket[] = [];
  const extras = new Map<string, PlannedExtra>();
  for (const [index, reservation] of reservations.entries()) {
    const parsed = parseReference(reservation.aggregateReference);
    if (!parsed) throw new EngineError('INVALID_FIELD_VALUE', { param: `reservations[${index}].aggregateReference`, details: { reason: 'not_an_aggregate_reference' } });
    if (parsed.kind === 'extra') {
      const seen = extras.get(parsed.extraId);
      extras.set(parsed.extraId, { index: seen?.index ?? index, extraId: parsed.extraId, quantity: (seen?.quantity ?? 0) + reservation.quantity });
      continue;
    }
    const [first] = parsed.splits;
    let split = first;
    if (parsed.splits.length > 1) {
      for (const candidate of parsed.splits) {
        if (await probe(reservation.productId, candidate.inventoryItemId, candidate.priceOptionId)) {
          split = candidate;
          break;
        }
      }
    }
    if (!split) throw new Error('parseReference returned a ticket without a split');
    tickets.push({ index, item: { occurrenceId: reservation.productId, ...split, quantity: reservation.quantity } });
  }
  if (tickets.length === 0) throw new EngineError('INVALID_FIELD_VALUE', { param: 'reservations', details: { reason: 'no_ticket' } });
  // v3 attaches extras to the cart, so to its one occurrence: an extra for another one is a mixed cart.
  const occurrences = new Set(tickets.map((ticket) => ticket.item.occurrenceId));
  reservations.forEach((reservation, index) => {
    if (parseReference(reservation.aggregateReference)?.kind === 'extra' && !occurrences.has(reservation.productId)) {
      throw new EngineError('MIXED_OCCURRENCES_NOT_SUPPORTED', { param: `reservations[${index}].productId` });
    }
  });
  return { tickets, extras: [...extras.values()] };
}

export async function upsertBasket(legacy: LegacyContext, channelId: string, body: UpsertBasketBody): Promise<Cart> {
  const { ctx } = legacy;
  return ctx.store.transaction(async (tx) => {
    const plan = await planBasket(body.reservations, probeOf(tx));
    // one upsert of a basket at a time (processes sharing a database too): the second sees the first's cart
    await tx.locks.named(`basket\n${channelId}\n${body.reference}`);
    const cartId = await tx.baskets.cartOf(channelId, body.reference);
    const current = cartId === undefined ? undefined : await stillHeld(ctx, tx, cartId);
    const cart = current && sameTickets(current, plan) ? await syncExtras(ctx, tx, current, plan) : await replaceCart(ctx, tx, current, plan);
    await tx.baskets.point(channelId, body.reference, cart.id, ctx.now());
    return cart;
  });
}

export async function readBasket(legacy: LegacyContext, channelId: string, reference: string): Promise<Cart> {
  return readCart(legacy.ctx, await cartIdOf(legacy.ctx.store.repos, channelId, reference), undefined);
}

export async function applyPromotion(legacy: LegacyContext, channelId: string, reference: string, code: string): Promise<Cart> {
  return applyVoucher(legacy.ctx, await cartIdOf(legacy.ctx.store.repos, channelId, reference), code);
}

export async function removeReservation(legacy: LegacyContext, channelId: string, reference: string, reservationId: string): Promise<Cart> {
  const cartId = await cartIdOf(legacy.ctx.store.repos, channelId, reference);
  return rethrowAt(() => removeExtra(legacy.ctx, cartId, reservationId), (param) => (param === 'itemId' ? 'reservationId' : param));
}

/** v3 DELETE answers 204 again for a deleted cart; a cleared v1 basket answers 404 (contract §11), so read first. */
export async function clearBasket(legacy: LegacyContext, channelId: string, reference: string): Promise<void> {
  const { ctx } = legacy;
  const refusal = await ctx.store.transaction(async (tx) => {
    const cartId = await cartIdOf(tx, channelId, reference);
    await liveCart(tx, cartId, ctx.now(), false);
    return deleteCartIn(ctx, tx, cartId);
  });
  if (refusal) throw refusal;
}

// ---------------------------------------------------------------------------------------------------

async function cartIdOf(repos: Pick<Tx, 'baskets'>, channelId: string, reference: string): Promise<string> {
  const cartId = await repos.baskets.cartOf(channelId, reference);
  if (cartId === undefined) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'reference' });
  return cartId;
}

function probeOf(tx: Pick<Tx, 'catalog'>): CatalogProbe {
  return async (occurrenceId, inventoryItemId, priceOptionId) => {
    const option = (await tx.catalog.priceOptions(occurrenceId, [priceOptionId])).get(priceOptionId);
    return option !== undefined && (await tx.catalog.inventory(occurrenceId, [inventoryItemId])).get(inventoryItemId)?.areaId === option.areaId;
  };
}

/** The cart behind the basket while it holds; none once it lapsed or was cleared; 409 once it was ordered. */
async function stillHeld(ctx: Clock, tx: Tx, cartId: string): Promise<Cart | undefined> {
  const now = ctx.now();
  try {
    return await cartView(tx, await liveCart(tx, cartId, now), now);
  } catch (error) {
    if (error instanceof EngineError && (error.code === 'CART_EXPIRED' || error.code === 'RESOURCE_NOT_FOUND')) return undefined;
    throw error;
  }
}

const ticketKey = (item: { occurrenceId?: string; inventoryItemId?: string; priceOptionId?: string; quantity: number }) =>
  JSON.stringify([item.occurrenceId, item.inventoryItemId, item.priceOptionId, item.quantity]);

function sameTickets(cart: Cart, plan: BasketPlan): boolean {
  const held = cart.items.filter((item) => item.type !== 'extra').map(ticketKey).sort();
  const wanted = plan.tickets.map((ticket) => ticketKey(ticket.item)).sort();
  return held.length === wanted.length && held.every((key, index) => key === wanted[index]);
}

/** Same tickets: the cart stays; its extras are made to match (removals first, so caps are checked on the result). */
async function syncExtras(ctx: Clock & Ids, tx: Tx, cart: Cart, plan: BasketPlan): Promise<Cart> {
  let result = cart;
  const wanted = new Map(plan.extras.map((extra) => [extra.extraId, extra]));
  const lines = cart.items.filter((item) => item.type === 'extra');
  for (const line of lines) if (!wanted.has(line.extraId ?? '')) result = await removeExtraIn(ctx, tx, cart.id, line.id);
  for (const line of lines) {
    const extra = wanted.get(line.extraId ?? '');
    if (extra && extra.quantity !== line.quantity) {
      result = await rethrowAt(() => changeExtraIn(ctx, tx, cart.id, line.id, extra.quantity), (param) => (param === 'quantity' ? `reservations[${extra.index}].quantity` : param));
    }
  }
  const added = plan.extras.filter((extra) => !lines.some((line) => line.extraId === extra.extraId));
  return added.length > 0 ? addPlannedExtras(ctx, tx, cart.id, added) : result;
}

/** New or changed tickets: a new cart (releasing the old one in the same transaction), its extras, the old vouchers. */
async function replaceCart(ctx: Clock & Ids & HoldLength & Syncing & TerminalRole, tx: Tx, previous: Cart | undefined, plan: BasketPlan): Promise<Cart> {
  const body: CreateCartBody = { items: plan.tickets.map((ticket) => ticket.item), ...(previous && { previousCartId: previous.id }) };
  let cart = await rethrowAt(() => createCartIn(ctx, tx, body), itemsParam(plan.tickets));
  if (plan.extras.length > 0) cart = await addPlannedExtras(ctx, tx, cart.id, plan.extras);
  for (const { code } of previous?.vouchers ?? []) cart = await carryVoucher(ctx, tx, cart, code);
  return cart;
}

async function addPlannedExtras(ctx: Clock & Ids, tx: Tx, cartId: string, extras: readonly PlannedExtra[]): Promise<Cart> {
  const body: AddExtrasBody = { items: extras.map(({ extraId, quantity }) => ({ extraId, quantity })) };
  return rethrowAt(() => addExtrasIn(ctx, tx, cartId, body), itemsParam(extras));
}

/** A voucher the new cart no longer qualifies for is dropped (the basket lists its promotions); other errors stand. */
async function carryVoucher(ctx: Clock, tx: Tx, cart: Cart, code: string): Promise<Cart> {
  try {
    return await applyVoucherIn(ctx, tx, cart.id, code);
  } catch (error) {
    if (error instanceof EngineError && (error.code === 'INVALID_VOUCHER' || error.code === 'VOUCHER_NOT_APPLICABLE_TO_GIFT_CARD')) return cart;
    throw error;
  }
}

const V1_FIELD: Readonly<Record<string, string>> = {
  occurrenceId: 'productId',
  inventoryItemId: 'aggregateReference',
  priceOptionId: 'aggregateReference',
  extraId: 'aggregateReference',
  quantity: 'quantity',
};

/** `items[k].field` of a v3 request built from `planned` → `reservations[i].field` of the v1 request. */
function itemsParam(planned: readonly { index: number }[]): (param: string) => string {
  return (param) => {
    const match = /^items\[(\d+)\](?:\.(\w+))?$/.exec(param);
    const index = match ? planned[Number(match[1])]?.index : undefined;
    if (!match || index === undefined) return param === 'items' ? 'reservations' : param;
    const field = match[2] === undefined ? undefined : (V1_FIELD[match[2]] ?? match[2]);
    return `reservations[${index}]${field === undefined ? '' : `.${field}`}`;
  };
}

/** Runs a v3 call; an EngineError it throws leaves with its param renamed into the v1 request's terms. */
async function rethrowAt<T>(call: () => Promise<T>, rename: (param: string) => string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof EngineError) || error.param === undefined) throw error;
    throw new EngineError(error.code, { param: rename(error.param), ...(error.details !== undefined && { details: error.details }) });
  }
}
