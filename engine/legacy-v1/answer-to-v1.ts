import { ERROR_CATALOGUE, type ErrorCode } from '../domain/errors';
import type { Cart } from '../contract/cart';
import type { Basket, Reservation } from './contract';
import { extraReference, ticketReference, toV1Money } from './mapping-table';

/**
 * One direction of the v1 facade: a v3 answer → the v1 answer (spec §9.2, contract §11). Pure; adds
 * nothing the v3 cart does not say, and drops only what v1 has no field for (`expiresAt`, receipt lines,
 * options, the currency of the cart beyond its money).
 */

export function basketOf(reference: string, cart: Cart): Basket {
  const occurrenceId = cart.items.find((item) => item.occurrenceId !== undefined)?.occurrenceId;
  return {
    reference,
    cartId: cart.id,
    reservations: cart.items.map((item) => reservationOf(item, occurrenceId)),
    promotions: cart.vouchers.map((voucher) => voucher.code),
    total: toV1Money(cart.total),
  };
}

function reservationOf(item: Cart['items'][number], occurrenceId: string | undefined): Reservation {
  const aggregateReference =
    item.type === 'extra' ? extraReference(known(item.extraId, 'extraId')) : ticketReference(known(item.inventoryItemId, 'inventoryItemId'), known(item.priceOptionId, 'priceOptionId'));
  return {
    reservationId: item.id,
    productId: known(item.occurrenceId ?? occurrenceId, 'occurrenceId'),
    aggregateReference,
    quantity: item.quantity,
    price: toV1Money(item.unitPrice),
    total: toV1Money(item.total),
  };
}

/** A v3 cart line always carries these; a missing one is a bug of the engine, not of the client. */
function known(value: string | undefined, field: string): string {
  if (value === undefined) throw new Error(`cart line without ${field}`);
  return value;
}

/**
 * The HTTP status of a v3 error code in v1: the same, except that a cart that is gone (410 CART_EXPIRED)
 * answers 404 — the older description of spec §3 rule 3, fixed by contract §11.
 */
export function v1Status(code: ErrorCode): number {
  return code === 'CART_EXPIRED' ? 404 : ERROR_CATALOGUE[code].status;
}
