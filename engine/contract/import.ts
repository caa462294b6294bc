import { Type, type Static } from 'typebox';
import { CartItemRequest } from './cart';
import { CurrencyCode, Id, LIMITS, Money } from './common';
import { Order } from './order';
import { ImportGiftCardPayment } from './gift-card';

/**
 * POST /orders/import and GET /capabilities: a Kassa hub takes a terminal's whole orders in one request
 * (contract §10), each created in one transaction or refused as a whole, with no cart round-trip.
 */

const strict = { additionalProperties: false } as const;

/** Extensions this engine offers beyond the v3 interface; names are `area.feature`, new ones are added, never renamed. */
export const EXTENSIONS = ['orders.import-batch', 'allocations.places', 'journal.import', 'checkins'] as const;
export type Extension = (typeof EXTENSIONS)[number];

export const Capabilities = Type.Object({
  extensions: Type.Array(Type.String(), { description: `extensions offered; this engine: ${EXTENSIONS.join(', ')}` }),
  limits: Type.Object({ importBatch: Type.Integer({ description: 'most orders per POST /orders/import' }) }),
});

export const IMPORT_BATCH_LIMIT = 100;

export const ImportOrder = Type.Object(
  {
    idempotencyKey: Type.String({ description: "UUID v4, fixed per terminal order: a repeat answers the first import's order" }),
    reference: Type.String({ minLength: 1, maxLength: 128, description: "the terminal's own order id; becomes payment.reference; one import per reference, for good" }),
    items: Type.Array(CartItemRequest, { minItems: 1, maxItems: LIMITS.maxItemsPerRequest, description: 'tickets and gift cards, as on POST /carts' }),
    extras: Type.Optional(Type.Array(Type.Object({ extraId: Id, quantity: Type.Integer({ minimum: 1, maximum: LIMITS.maxQuantity }) }, strict), { maxItems: LIMITS.maxItemsPerRequest })),
    vouchers: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 10 })),
    currency: Type.Optional(CurrencyCode),
    expectedTotal: Money,
    giftCardCodes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: LIMITS.maxItemsPerRequest,
      description: 'the codes the terminal issued for the order\'s gift-card items, in item order: the hub issues the same cards, spendable anywhere once the order is here',
    })),
    tickets: Type.Optional(Type.Array(Type.Object({
      code: Type.String({ minLength: 1, maxLength: 64, description: 'the 20-character code the terminal printed' }),
      signedCode: Type.Optional(Type.String({ minLength: 1, maxLength: 600, description: 'the signed code of its QR (contract §15), kept as it is' })),
    }, strict), {
      maxItems: LIMITS.maxTicketsPerOrder,
      description: "the tickets the terminal issued, in ticket order (issue #26): the hub issues the order's tickets under the same codes, so a gate " +
        'that asks the hub knows them; a code taken here or named twice refuses the order (400 INVALID_FIELD_VALUE `tickets[i]`). Absent: the hub makes codes',
    })),
    payment: Type.Optional(Type.Object(ImportGiftCardPayment.properties, {
      ...strict,
      description: 'gift cards paid part of it at the terminal, held at this hub under holdReference: the holds become redemptions of the imported order',
    })),
  },
  strict,
);
export type ImportOrder = Static<typeof ImportOrder>;

export const ImportBody = Type.Object({ orders: Type.Array(ImportOrder, { minItems: 1, maxItems: IMPORT_BATCH_LIMIT }) }, strict);
export type ImportBody = Static<typeof ImportBody>;

const ErrorObject = Type.Object({
  type: Type.String(),
  code: Type.String(),
  message: Type.String(),
  param: Type.Optional(Type.String()),
  details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export const ImportResult = Type.Object({
  reference: Type.String(),
  idempotencyKey: Type.String(),
  status: Type.Integer({ description: "201 created (or replayed), else the status POST /orders would have answered" }),
  replayed: Type.Optional(Type.Boolean()),
  order: Type.Optional(Order),
  error: Type.Optional(ErrorObject),
});
export type ImportResult = Static<typeof ImportResult>;

export const ImportAnswer = Type.Object({ results: Type.Array(ImportResult, { description: 'one per order, in the order sent' }) });
