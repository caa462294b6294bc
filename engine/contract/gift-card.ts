import { Type, type Static } from 'typebox';
import { CurrencyCode, Id, Money, Timestamp } from './common';

/**
 * Gift cards as payment (issue #24, contract §13): the card's balance and ledger, the parts a checkout pays with,
 * the quote the UI shows before it checks out, and a hub's holds for its terminals. One schema each for
 * validation, OpenAPI and the UI's types.
 */

const strict = { additionalProperties: false } as const;

export const MAX_GIFT_CARDS_PER_PAYMENT = 10;

/** what a customer types or scans: matched case-insensitively, spaces and hyphens ignored */
export const GiftCardCode = Type.String({ minLength: 1, maxLength: 64, description: 'the card\'s code; case, spaces and hyphens do not matter' });

export const GiftCardPartRequest = Type.Object(
  {
    code: GiftCardCode,
    amount: Type.Optional(Type.Object(Money.properties, {
      additionalProperties: false,
      description: 'how much to take from this card (> 0, the cart\'s currency, at most its balance); without it, as much as its balance and the rest of the total allow',
    })),
  },
  strict,
);
export type GiftCardPartRequest = Static<typeof GiftCardPartRequest>;

export const GiftCardParts = Type.Array(GiftCardPartRequest, {
  minItems: 1,
  maxItems: MAX_GIFT_CARDS_PER_PAYMENT,
  description: 'redeemed first, in the order given; the rest is paid by `method`. The same code twice is 400 INVALID_FIELD_VALUE reason duplicate',
});

/** A card's part of a payment, as a hub's holds answer it (the full code: the caller typed it). */
export const GiftCardPart = Type.Object({ code: Type.String(), amount: Money });
export type GiftCardPart = Static<typeof GiftCardPart>;

/** A card's part of an order's payment: what it took and what was left on it right after (receipts print it). */
export const PaymentGiftCardPart = Type.Object({
  code: Type.String(),
  amount: Money,
  balanceAfter: Type.Optional(Type.Object(Money.properties, { description: "the card's balance right after this order took its part" })),
});

export const GiftCardParams = Type.Object({ code: GiftCardCode });

export const GiftCardView = Type.Object({
  code: Type.String(),
  currency: CurrencyCode,
  initial: Money,
  balance: Type.Object(Money.properties, { description: 'what can be spent now: a checkout in progress has its part out of it already' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('void')]),
  transactions: Type.Array(
    Type.Object({ at: Timestamp, orderId: Id, amount: Money }),
    { description: 'settled entries, oldest first: a redemption negative, a refund back onto the card positive, a void (orderId: the order that issued it) the rest, negative' },
  ),
});
export type GiftCardView = Static<typeof GiftCardView>;

export const GiftCardQuoteBody = Type.Object({ giftCards: GiftCardParts }, strict);
export type GiftCardQuoteBody = Static<typeof GiftCardQuoteBody>;

export const GiftCardQuote = Type.Object({
  parts: Type.Array(Type.Object({ code: Type.String(), amount: Money, balance: Money, balanceAfter: Money }), {
    description: 'each card the checkout would take, in the order given (a card that would take nothing is left out)',
  }),
  remaining: Type.Object(Money.properties, { description: 'what is left to pay by card or cash' }),
});
export type GiftCardQuote = Static<typeof GiftCardQuote>;

/** POST /hub/gift-card-holds: a terminal holds its checkout's parts at its hub (contract §10, §13). */
export const GiftCardHoldBody = Type.Object(
  {
    reference: Type.String({ minLength: 1, maxLength: 128, description: 'the terminal\'s payment attempt id: one hold per reference, for good' }),
    currency: CurrencyCode,
    cards: GiftCardParts,
    total: Money,
  },
  strict,
);
export type GiftCardHoldBody = Static<typeof GiftCardHoldBody>;

export const GiftCardHold = Type.Object({
  reference: Type.String(),
  cards: Type.Array(GiftCardPart),
  released: Type.Optional(Type.Boolean({ description: 'the holds were given back (release)' })),
});
export type GiftCardHold = Static<typeof GiftCardHold>;

export const GiftCardHoldParams = Type.Object({ reference: Type.String({ minLength: 1, maxLength: 128 }) });

/** what a terminal's imported order carries when gift cards paid part of it (held at the hub under `holdReference`) */
export const ImportGiftCardPayment = Type.Object(
  {
    holdReference: Type.String({ minLength: 1, maxLength: 128, description: 'the reference the terminal held the parts under (POST /hub/gift-card-holds)' }),
    giftCards: Type.Array(Type.Object({ code: GiftCardCode, amount: Money }, strict), { minItems: 1, maxItems: MAX_GIFT_CARDS_PER_PAYMENT }),
  },
  strict,
);
export type ImportGiftCardPayment = Static<typeof ImportGiftCardPayment>;
