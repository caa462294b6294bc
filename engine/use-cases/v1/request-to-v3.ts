import { EngineError } from '../../domain/errors';
import type { AddExtrasBody, Cart, CreateCartBody } from '../../contract/cart';
import type { ReservationRequest, UpsertBasketBody } from '../../contract/v1';
import type { BasketRepo } from '../../store/basket-repo';
import { addExtras } from '../add-extras';
import { liveCart } from '../cart-access';
import { cartView } from '../cart-view';
import { changeExtra } from '../change-extra';
import type { EngineContext } from '../context';
import { createCart } from '../create-cart';
import { deleteCart } from '../delete-cart';
import { readCart } from '../read-cart';
import { removeExtra } from '../remove-extra';
import { applyVoucher } from '../vouchers';
import { parseReference } from './mapping-table';

/**
 * The other direction of the v1 facade: a v1 request → calls of the v3 use cases (spec §9.1, contract §11).
 * No rule of its own: every check is the v3 use case's, so v1 inherits each rule v3 has or gains. What is
 * here is translation: references to cart ids, aggregateReferences to ids, a whole-basket upsert to the
 * v3 calls that make the cart hold it, and v3 error params (`items[2].quantity`) back to v1 paths.
 * Each v1 call is one transaction: a refused upsert changes nothing.
 */

export interface LegacyContext {
  readonly ctx: EngineContext;
  readonly baskets: BasketRepo;
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
export type CatalogProbe = (occurrenceId: string, inventoryItemId: string, priceOptionId: string) => boolean;

/** The v3 items a v1 reservation list stands for. Pure, given the probe. */
export function planBasket(reservations: readonly ReservationRequest[], probe: CatalogProbe): BasketPlan {
  const tickets: PlannedTicket[] = [];
  const extras = new Map<string, PlannedExtra>();
  reservations.forEach((reservation, index) => {
    const parsed = parseReference(reservation.aggregateReference);
    if (!parsed) throw new EngineError('INVALID_FIELD_VALUE', { param: `reservations[${index}].aggregateReference`, details: { reason: 'not_an_aggregate_reference' } });
    if (parsed.kind === 'extra') {
      const seen = extras.get(parsed.extraId);
      extras.set(parsed.extraId, { index: seen?.index ?? index, extraId: parsed.extraId, quantity: (seen?.quantity ?? 0) + reservation.quantity });
      return;
    }
    const [first] = parsed.splits;
    const split = (parsed.splits.length > 1 && parsed.splits.find((s) => probe(reservation.productId, s.inventoryItemId, s.priceOptionId))) || first;
    if (!split) throw new Error('parseReference returned a ticket without a split');
    tickets.push({ index, item: { occurrenceId: reservation.productId, ...split, quantity: reservation.quantity } });
  });
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

export function upsertBasket(legacy: LegacyContext, channelId: string, body: UpsertBasketBody): Cart {
  const { ctx, baskets } = legacy;
  return await ctx.store.transaction(async (tx) => {
    const plan = planBasket(body.reservations, probeOf(ctx));
    const cartId = baskets.cartOf(channelId, body.reference);
    const current = cartId === undefined ? undefined : stillHeld(ctx, cartId);
    const cart = current && sameTickets(current, plan) ? syncExtras(ctx, current, plan) : replaceCart(ctx, current, plan);
    baskets.point(channelId, body.reference, cart.id, ctx.now());
    return cart;
  });
}

export function readBasket(legacy: LegacyContext, channelId: string, reference: string): Cart {
  return readCart(legacy.ctx, cartIdOf(legacy, channelId, reference), undefined);
}

export function applyPromotion(legacy: LegacyContext, channelId: string, reference: string, code: string): Cart {
  return applyVoucher(legacy.ctx, cartIdOf(legacy, channelId, reference), code);
}

export function removeReservation(legacy: LegacyContext, channelId: string, reference: string, reservationId: string): Cart {
  return rethrowAt(() => removeExtra(legacy.ctx, cartIdOf(legacy, channelId, reference), reservationId), (param) => (param === 'itemId' ? 'reservationId' : param));
}

/** v3 DELETE answers 204 again for a deleted cart; a cleared v1 basket answers 404 (contract §11), so read first. */
export function clearBasket(legacy: LegacyContext, channelId: string, reference: string): void {
  immediate(legacy.ctx.db, () => {
    const cartId = cartIdOf(legacy, channelId, reference);
    readCart(legacy.ctx, cartId, undefined);
    deleteCart(legacy.ctx, cartId);
  });
}

// ---------------------------------------------------------------------------------------------------

function cartIdOf({ baskets }: LegacyContext, channelId: string, reference: string): string {
  const cartId = baskets.cartOf(channelId, reference);
  if (cartId === undefined) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'reference' });
  return cartId;
}

function probeOf(ctx: EngineContext): CatalogProbe {
  return (occurrenceId, inventoryItemId, priceOptionId) => {
    const option = await tx.catalog.priceOptions(occurrenceId, [priceOptionId]).get(priceOptionId);
    return option !== undefined && await tx.catalog.inventory(occurrenceId, [inventoryItemId]).get(inventoryItemId)?.areaId === option.areaId;
  };
}

/** The cart behind the basket while it holds; none once it lapsed or was cleared; 409 once it was ordered. */
function stillHeld(ctx: EngineContext, cartId: string): Cart | undefined {
  const now = ctx.now();
  try {
    return cartView(tx, await liveCart(tx, cartId, now), now);
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
function syncExtras(ctx: EngineContext, cart: Cart, plan: BasketPlan): Cart {
  let result = cart;
  const wanted = new Map(plan.extras.map((extra) => [extra.extraId, extra]));
  const lines = cart.items.filter((item) => item.type === 'extra');
  for (const line of lines) if (!wanted.has(line.extraId ?? '')) result = removeExtra(ctx, cart.id, line.id);
  for (const line of lines) {
    const extra = wanted.get(line.extraId ?? '');
    if (extra && extra.quantity !== line.quantity) {
      result = rethrowAt(() => changeExtra(ctx, cart.id, line.id, extra.quantity), (param) => (param === 'quantity' ? `reservations[${extra.index}].quantity` : param));
    }
  }
  const added = plan.extras.filter((extra) => !lines.some((line) => line.extraId === extra.extraId));
  return added.length > 0 ? addPlannedExtras(ctx, cart.id, added) : result;
}

/** New or changed tickets: a new cart (releasing the old one in the same transaction), its extras, the old vouchers. */
function replaceCart(ctx: EngineContext, previous: Cart | undefined, plan: BasketPlan): Cart {
  const body: CreateCartBody = { items: plan.tickets.map((ticket) => ticket.item), ...(previous && { previousCartId: previous.id }) };
  let cart = rethrowAt(() => createCart(ctx, body), itemsParam(plan.tickets));
  if (plan.extras.length > 0) cart = addPlannedExtras(ctx, cart.id, plan.extras);
  for (const { code } of previous?.vouchers ?? []) cart = carryVoucher(ctx, cart, code);
  return cart;
}

function addPlannedExtras(ctx: EngineContext, cartId: string, extras: readonly PlannedExtra[]): Cart {
  const body: AddExtrasBody = { items: extras.map(({ extraId, quantity }) => ({ extraId, quantity })) };
  return rethrowAt(() => addExtras(ctx, cartId, body), itemsParam(extras));
}

/** A voucher the new cart no longer qualifies for is dropped (the basket lists its promotions); other errors stand. */
function carryVoucher(ctx: EngineContext, cart: Cart, code: string): Cart {
  try {
    return applyVoucher(ctx, cart.id, code);
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
function rethrowAt<T>(call: () => T, rename: (param: string) => string): T {
  try {
    return call();
  } catch (error) {
    if (!(error instanceof EngineError) || error.param === undefined) throw error;
    throw new EngineError(error.code, { param: rename(error.param), ...(error.details !== undefined && { details: error.details }) });
  }
}
