import { Type, type Static } from 'typebox';
import { CartItem, ReceiptLine } from './cart';
import { CurrencyCode, Id, Money, NonNegativeMoney, Timestamp } from './common';
import { GiftCardParts, PaymentGiftCardPart } from './gift-card';

/** POST /orders and the order resource (spec §4.7–4.8; contract §4, §7). */

const strict = { additionalProperties: false } as const;

export const PaymentRequest = Type.Object(
  {
    method: Type.Union([Type.Literal('card'), Type.Literal('cash'), Type.Literal('external'), Type.Literal('none'), Type.Literal('giftCard')], {
      description: 'external: paid elsewhere already (a syncing terminal); needs the orders:import scope. '
        + 'none: only for a total of 0 (400 INVALID_FIELD_VALUE reason payment_required otherwise); a total of 0 paid by card or cash '
        + 'also becomes an order paid with none, and no provider is asked. '
        + 'giftCard: the cards of `giftCards` pay the whole total (402 GIFT_CARD_INSUFFICIENT_BALANCE with details.remaining otherwise); '
        + 'card or cash with `giftCards` pay what the cards leave open',
    }),
    giftCards: Type.Optional(GiftCardParts),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'external: where it was paid (the terminal\'s order id)' })),
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'card: a payment token, never a card number' })),
    authenticationResult: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'card: the result of a 3-D Secure challenge' })),
    tendered: Type.Optional(Type.Object(NonNegativeMoney.properties, {
      additionalProperties: false,
      description: 'cash: at least the total and at most ten times it, or the total plus 500 major units when that is more '
        + '(400 INVALID_FIELD_VALUE reason less_than_total / more_than_max_tendered)',
    })),
  },
  strict,
);
export type PaymentRequest = Static<typeof PaymentRequest>;

export const PlaceOrderBody = Type.Object({ cartId: Id, expectedTotal: Money, payment: PaymentRequest }, strict);
export type PlaceOrderBody = Static<typeof PlaceOrderBody>;

export const PaymentView = Type.Object({
  method: Type.Union([Type.Literal('card'), Type.Literal('cash'), Type.Literal('external'), Type.Literal('none'), Type.Literal('giftCard')], {
    description: 'none: the total was 0, nothing was paid. giftCard: gift cards paid the whole total',
  }),
  status: Type.Union([Type.Literal('captured'), Type.Literal('refunding'), Type.Literal('refunded')], {
    description: 'refunding: the order is cancelled and the card refund is asked of the provider until it confirms',
  }),
  amount: Type.Object(Money.properties, { description: 'what `method` took: the total less the gift-card parts (for giftCard: the whole total)' }),
  reference: Type.Optional(Type.String()),
  authenticated: Type.Optional(Type.Boolean()),
  tendered: Type.Optional(Money),
  change: Type.Optional(Money),
  refundedAt: Type.Optional(Timestamp),
  giftCards: Type.Optional(Type.Array(PaymentGiftCardPart, {
    description: 'the gift-card parts, in the order given; present when cards paid a part. Cancelling puts each back on its card at once',
  })),
});
export type PaymentView = Static<typeof PaymentView>;

export const Order = Type.Object({
  id: Id,
  cartId: Id,
  status: Type.Union([Type.Literal('confirmed'), Type.Literal('cancelled')]),
  createdAt: Timestamp,
  cancelledAt: Type.Optional(Timestamp),
  currency: CurrencyCode,
  total: Money,
  items: Type.Array(CartItem),
  receiptLines: Type.Array(ReceiptLine),
  payment: PaymentView,
  event: Type.Optional(
    Type.Object(
      {
        id: Id,
        name: Type.String(),
        occurrenceId: Id,
        startsAt: Type.String({ description: 'the occurrence start as the catalog has it now (ISO 8601)' }),
        location: Type.Object({ id: Id, name: Type.String(), timeZone: Type.Optional(Type.String({ description: "the venue's IANA time zone" })) }),
      },
      { description: "the show the order is for (event, date, venue), from the current catalog, named in the request's Accept-Language; "
        + "items, receipt lines and ticket areas are too. Printed tickets and receipts use the order's language: the one it was sold in (contract §12) unless a print request names another" },
    ),
  ),
  tickets: Type.Array(
    Type.Object({
      id: Id,
      itemId: Id,
      code: Type.String(),
      area: Type.Optional(Type.String({ description: 'the area the ticket admits to' })),
      seat: Type.Optional(Type.String({ description: "the seat's label, in an assigned-seat area" })),
      signedCode: Type.Optional(Type.String({
        description: 'the signed code its QR encodes (contract §15): K1.<payload>.<signature>.<keyId>, verifiable with the keys of GET /ticket-keys; '
          + 'absent for tickets sold before signing',
      })),
    }),
  ),
  giftCards: Type.Array(Type.Object({ code: Type.String(), itemId: Id, value: Money, status: Type.Union([Type.Literal('active'), Type.Literal('void')]) })),
});
export type Order = Static<typeof Order>;

export const OrderParams = Type.Object({ orderId: Id });

export const OrdersQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^(?:[1-9]|[1-9][0-9]|1[0-9][0-9]|200)$', description: '1–200, default 50' })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    ticketCode: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  strict,
);

export const OrdersPage = Type.Object({ data: Type.Array(Order), nextCursor: Type.Optional(Type.String()) });

export const ChallengeDecision = Type.Object({ outcome: Type.Union([Type.Literal('approve'), Type.Literal('reject')]) }, strict);
export const ChallengeParams = Type.Object({ reference: Type.String({ minLength: 1, maxLength: 128 }) });
