import { Type, type Static } from 'typebox';
import { CurrencyCode, Id, LIMITS } from '../contract/common';

/** Wire shapes of the legacy v1 basket interface (spec §9, contract §11). Deprecated: see docs/v1.md. */

const strict = { additionalProperties: false } as const;

/** Money of v1: `value` in minor units, and the scale spelled out (v3 derives it from the currency). */
export const V1Money = Type.Object({
  value: Type.Integer({ description: 'minor units of the currency' }),
  currency: CurrencyCode,
  decimalPlaces: Type.Integer({ minimum: 0, maximum: 4, description: 'ISO 4217 minor-unit digits of the currency' }),
});
export type V1Money = Static<typeof V1Money>;

/** A basket reference: chosen by the client, unique per channel. */
export const Reference = Type.String({ minLength: 1, maxLength: LIMITS.maxIdLength, pattern: '^[\\x21-\\x7E]+$', description: 'printable ASCII, no spaces' });

export const AggregateReference = Type.String({
  minLength: 3,
  maxLength: 2 * LIMITS.maxIdLength + 1,
  description: '"<inventoryItemId>:<priceOptionId>" for a ticket or gift card, "extra:<extraId>" for an extra',
});

export const ReservationRequest = Type.Object(
  {
    productId: Type.String({ minLength: 1, maxLength: LIMITS.maxIdLength, description: 'the occurrence id' }),
    aggregateReference: AggregateReference,
    quantity: Type.Integer({ minimum: 1, maximum: LIMITS.maxQuantity }),
  },
  strict,
);
export type ReservationRequest = Static<typeof ReservationRequest>;

export const UpsertBasketBody = Type.Object(
  { reference: Reference, reservations: Type.Array(ReservationRequest, { minItems: 1, maxItems: LIMITS.maxItemsPerRequest }) },
  strict,
);
export type UpsertBasketBody = Static<typeof UpsertBasketBody>;

export const PromotionBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) }, strict);

export const BasketParams = Type.Object({ reference: Reference });
export const ReservationParams = Type.Object({ reference: Reference, reservationId: Id });

export const Reservation = Type.Object({
  reservationId: Id,
  productId: Id,
  aggregateReference: Type.String(),
  quantity: Type.Integer(),
  price: V1Money,
  total: V1Money,
});
export type Reservation = Static<typeof Reservation>;

export const Basket = Type.Object({
  reference: Type.String(),
  cartId: Type.String({ description: 'the v3 cart behind the basket: check it out with POST /api/v3/orders' }),
  reservations: Type.Array(Reservation),
  promotions: Type.Array(Type.String()),
  total: V1Money,
});
export type Basket = Static<typeof Basket>;

export const V1ErrorBody = Type.Object({
  errorCode: Type.String({ description: 'the v3 error code (spec §7.3, contract §6)' }),
  message: Type.String(),
  status: Type.Integer(),
});
export type V1ErrorBody = Static<typeof V1ErrorBody>;

export const LegacyUsage = Type.Array(
  Type.Object({
    channelId: Type.String({ description: 'empty for calls that named no valid channel' }),
    channelName: Type.Union([Type.String(), Type.Null()]),
    route: Type.String({ description: '"METHOD /api/v1/…" pattern, or "METHOD (unmatched)"' }),
    calls: Type.Integer(),
    errors: Type.Integer({ description: 'answers with status 400 or more' }),
    firstAt: Type.String({ format: 'date-time' }),
    lastAt: Type.String({ format: 'date-time' }),
  }),
);
export type LegacyUsage = Static<typeof LegacyUsage>;
