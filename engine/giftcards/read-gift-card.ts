import { EngineError } from '../domain/errors';
import { normalizeGiftCardCode } from '../domain/gift-cards';
import type { GiftCardView } from '../contract/gift-card';
import type { EngineContext } from '../shared/context';
import { refuseGiftCardGuesses } from '../checkout/payments/lifecycle';

/**
 * GET /gift-cards/{code} (contract §13): a card's balance and its settled ledger, oldest first. The code is
 * matched case-insensitively, spaces and hyphens ignored. An unknown code is 404 GIFT_CARD_NOT_FOUND and counts
 * against the key: after 10 in a minute it answers 429 until the minute has passed. A void card answers with
 * status `void` and balance 0.
 */
export async function readGiftCard(ctx: Pick<EngineContext, 'store' | 'now' | 'giftCardGuesses'>, keyId: string, typed: string): Promise<GiftCardView> {
  const now = ctx.now();
  refuseGiftCardGuesses(ctx.giftCardGuesses, keyId, now);
  const code = normalizeGiftCardCode(typed);
  const { card, entries } = await ctx.store.transaction(async (tx) => {
    const [found] = await tx.giftCards.cards([code]);
    return { card: found, entries: found ? await tx.giftCards.settled(code) : [] };
  }, { readOnly: true });
  if (!card) {
    ctx.giftCardGuesses.miss(keyId, now);
    throw new EngineError('GIFT_CARD_NOT_FOUND', { param: 'code' });
  }
  const money = (amount: number) => ({ amount, currency: card.currency });
  return {
    code: card.code,
    currency: card.currency,
    initial: money(card.initial),
    balance: money(card.status === 'void' ? 0 : Math.max(0, card.balance)),
    status: card.status,
    transactions: entries.map((entry) => ({ at: new Date(entry.at).toISOString(), orderId: entry.orderId ?? card.orderId, amount: money(entry.amount) })),
  };
}
