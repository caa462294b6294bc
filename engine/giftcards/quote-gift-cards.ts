import { EngineError } from '../domain/errors';
import { checkGiftCardParts } from '../domain/gift-cards';
import type { GiftCardQuote, GiftCardQuoteBody } from '../contract/gift-card';
import type { EngineContext } from '../shared/context';
import { liveCart } from '../carts/cart-access';
import { cartView } from '../carts/cart-view';
import { planGiftCardPayment } from '../checkout/payments/lifecycle';

/**
 * POST /carts/{cartId}/gift-card-quote (issue #24): what a checkout with these cards would take from each and what
 * would be left to pay, with the same refusals as the checkout — so the UI shows `Balance`, each part and `Left to
 * pay` without computing a price. Nothing is held or written; unknown codes count against the key's guesses.
 */
export async function quoteGiftCards(ctx: Pick<EngineContext, 'store' | 'now' | 'giftCardGuesses'>, keyId: string, cartId: string, body: GiftCardQuoteBody): Promise<GiftCardQuote> {
  const now = ctx.now();
  return ctx.store.transaction(async (tx) => {
    const cart = await liveCart(tx, cartId, now, false);
    const { total } = await cartView(tx, cart, now);
    const requested = checkGiftCardParts(body.giftCards, total, 'giftCards');
    if (cart.kind === 'giftCard') throw new EngineError('GIFT_CARD_NOT_ACCEPTED', { param: 'giftCards' });
    const plan = await planGiftCardPayment(tx, { throttle: ctx.giftCardGuesses, keyId, now }, requested, total, 'giftCards');
    const money = (amount: number) => ({ amount, currency: total.currency });
    return {
      parts: plan.parts.map((part) => ({ code: part.code, amount: money(part.amount), balance: money(part.balance), balanceAfter: money(part.balanceAfter) })),
      remaining: money(plan.remaining),
    };
  });
}
