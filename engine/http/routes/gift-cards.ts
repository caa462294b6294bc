import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CartParams } from '../../contract/cart';
import { replies } from '../../contract/common';
import { GiftCardHold, GiftCardHoldBody, GiftCardHoldParams, GiftCardParams, GiftCardQuote, GiftCardQuoteBody, GiftCardView } from '../../contract/gift-card';
import { holdGiftCards, releaseGiftCards } from '../../giftcards/hub-holds';
import { quoteGiftCards } from '../../giftcards/quote-gift-cards';
import { readGiftCard } from '../../giftcards/read-gift-card';
import type { EngineContext } from '../../shared/context';
import { callerOf } from '../auth';

const tags = ['gift cards'];
const THROTTLE = 'After 10 unknown codes within a minute the API key answers 429 RATE_LIMIT_EXCEEDED (with Retry-After) on this route, '
  + 'the quote and any checkout with `payment.giftCards`, until the minute has passed (per engine process).';

/** Gift cards as payment (issue #24, contract §13): a card's balance and the quote of a payment with cards. Plumbing only. */
export const giftCardRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext }> = async (app, { ctx }) => {
  app.get(
    '/gift-cards/:code',
    {
      config: { scope: ['carts:write', 'orders:read'] },
      schema: {
        tags,
        summary: "A gift card's balance and its transactions",
        description: 'The code is matched case-insensitively, spaces and hyphens ignored. 404 GIFT_CARD_NOT_FOUND for an unknown code; '
          + `a void card answers status void and balance 0. ${THROTTLE}`,
        params: GiftCardParams,
        response: replies(200, GiftCardView),
      },
    },
    async (request) => ({ data: await readGiftCard(ctx, callerOf(request).keyId, request.params.code) }),
  );

  app.post(
    '/carts/:cartId/gift-card-quote',
    {
      config: { scope: 'carts:write' },
      schema: {
        tags,
        summary: 'What these gift cards would pay of the cart, and what is left to pay',
        description: `The same split and refusals as POST /orders with payment.giftCards; nothing is held. ${THROTTLE}`,
        params: CartParams,
        body: GiftCardQuoteBody,
        response: replies(200, GiftCardQuote),
      },
    },
    async (request) => ({ data: await quoteGiftCards(ctx, callerOf(request).keyId, request.params.cartId, request.body) }),
  );
};

/** A hub's gift-card holds for its terminals (contract §10, §13; scope `sync`). */
export const hubGiftCardRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext }> = async (app, { ctx }) => {
  app.post(
    '/hub/gift-card-holds',
    {
      config: { scope: 'sync' },
      schema: {
        tags,
        summary: "Hold a terminal checkout's gift-card parts at the hub",
        description: 'A terminal holds its parts here (under its payment attempt id, `reference`) before it charges the rest; the import of its order, '
          + 'carrying `payment.giftCards: { holdReference, giftCards }`, settles them into redemptions of the imported order. '
          + 'Idempotent per reference: the same reference again answers the holds made first. The same refusals as a checkout.',
        body: GiftCardHoldBody,
        response: replies(200, GiftCardHold),
      },
    },
    async (request) => ({ data: await holdGiftCards(ctx, callerOf(request), request.body) }),
  );

  app.post(
    '/hub/gift-card-holds/:reference/release',
    {
      config: { scope: 'sync' },
      schema: {
        tags,
        summary: "Release a failed terminal checkout's gift-card holds",
        description: 'Idempotent. Holds already settled into an imported order stay and are answered in `cards`; `released` says whether any were dropped now.',
        params: GiftCardHoldParams,
        response: replies(200, GiftCardHold),
      },
    },
    async (request) => ({ data: await releaseGiftCards(ctx, request.params.reference) }),
  );
};
