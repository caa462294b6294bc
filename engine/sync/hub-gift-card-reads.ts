import { EngineError } from '../domain/errors';
import { checkGiftCardParts, normalizeGiftCardCode, planGiftCards, type GiftCardFacts } from '../domain/gift-cards';
import type { GiftCardQuote, GiftCardQuoteBody, GiftCardView } from '../contract/gift-card';
import type { Clock, GiftCardGuesses, Storage } from '../shared/context';
import { liveCart } from '../carts/cart-access';
import { cartView } from '../carts/cart-view';
import { refuseGiftCardGuesses } from '../checkout/payments/lifecycle';
import type { HubGiftCards } from './hub-gift-cards';

/**
 * GET /gift-cards/{code} and the gift-card quote at a terminal (issue #24, contract §13 and §10): the cards are the
 * hub's, so both ask the hub within the request (its GET, with the terminal's upstream key) and answer what it
 * answers; offline 503 UPSTREAM_UNAVAILABLE. The caller's key is throttled here as at any engine: an unknown code
 * the hub reports counts against it, and after 10 in a minute it answers 429 before the hub is asked.
 */

type Deps = Storage & Clock & GiftCardGuesses;

/** A card as its hub shows it (GET /gift-cards/{code}), passed through. */
export async function readGiftCardAtHub(ctx: Deps, hub: HubGiftCards, keyId: string, typed: string): Promise<GiftCardView> {
  const now = ctx.now();
  refuseGiftCardGuesses(ctx.giftCardGuesses, keyId, now);
  const found = await hub.lookup(normalizeGiftCardCode(typed));
  if ('data' in found) return found.data;
  if (found.error.code === 'GIFT_CARD_NOT_FOUND') ctx.giftCardGuesses.miss(keyId, now);
  throw found.error.code === 'GIFT_CARD_NOT_FOUND' ? new EngineError('GIFT_CARD_NOT_FOUND', { param: 'code' }) : found.error;
}

/**
 * The quote at a terminal: the cart's total here, each card's balance from the hub, split as a checkout splits
 * (domain/gift-cards.ts planGiftCards). Nothing is held anywhere.
 */
export async function quoteGiftCardsAtHub(ctx: Deps, hub: HubGiftCards, keyId: string, cartId: string, body: GiftCardQuoteBody): Promise<GiftCardQuote> {
  const now = ctx.now();
  const { total, kind } = await ctx.store.transaction(async (tx) => {
    const cart = await liveCart(tx, cartId, now, false);
    return { total: (await cartView(tx, cart, now)).total, kind: cart.kind };
  }, { readOnly: true });
  const requested = checkGiftCardParts(body.giftCards, total, 'giftCards');
  if (kind === 'giftCard') throw new EngineError('GIFT_CARD_NOT_ACCEPTED', { param: 'giftCards' });
  refuseGiftCardGuesses(ctx.giftCardGuesses, keyId, now);
  const cards = new Map<string, GiftCardFacts>();
  for (const part of requested) {
    const found = await hub.lookup(part.code);
    if ('error' in found) {
      // an unknown card is refused by the split below, with its position; anything else (offline, 429) as the hub said
      if (found.error.code !== 'GIFT_CARD_NOT_FOUND') throw found.error;
      ctx.giftCardGuesses.miss(keyId, now);
      continue;
    }
    const { currency, status, balance } = found.data;
    cards.set(part.code, { code: part.code, currency, status, balance: balance.amount });
  }
  const plan = planGiftCards(requested, cards, total, 'giftCards');
  const money = (amount: number) => ({ amount, currency: total.currency });
  return {
    parts: plan.parts.map((part) => ({ code: part.code, amount: money(part.amount), balance: money(part.balance), balanceAfter: money(part.balanceAfter) })),
    remaining: money(plan.remaining),
  };
}

