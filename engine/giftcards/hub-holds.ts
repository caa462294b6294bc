import { EngineError } from '../domain/errors';
import { checkGiftCardParts } from '../domain/gift-cards';
import type { Caller } from '../domain/scopes';
import type { GiftCardHold, GiftCardHoldBody } from '../contract/gift-card';
import type { GiftCardEntryRow } from '../store/gift-card-repo';
import type { EngineContext } from '../shared/context';
import type { Tx } from '../store/port';
import { holdForTerminal, planGiftCardPayment, releaseForTerminal } from '../checkout/payments/lifecycle';

/**
 * A hub's gift-card holds for its terminals (contract §10, §13): at a terminal the cards live at its hub, so a
 * terminal checkout with gift cards holds its parts here within the request, under its own payment attempt id
 * (`reference`), before it charges the rest. The import of its order settles the holds into redemptions of the
 * imported order (sync/import-orders.ts); a failed checkout releases them. Both are idempotent per reference.
 */

type Ctx = Pick<EngineContext, 'store' | 'now' | 'giftCardGuesses'>;

/** POST /hub/gift-card-holds: holds the parts (the same refusals as a checkout's), or answers the holds made before. */
export async function holdGiftCards(ctx: Ctx, caller: Caller, body: GiftCardHoldBody): Promise<GiftCardHold> {
  const now = ctx.now();
  return ctx.store.transaction(async (tx) => {
    await lockReference(tx, body.reference);
    const earlier = await tx.giftCards.ofAttempt(body.reference);
    if (earlier.length > 0) return answer(body.reference, earlier, body.currency);
    if (body.total.currency !== body.currency) {
      throw new EngineError('INVALID_FIELD_VALUE', { param: 'total.currency', details: { reason: 'not_the_currency' } });
    }
    const requested = checkGiftCardParts(body.cards, body.total, 'cards');
    const plan = await planGiftCardPayment(tx, { throttle: ctx.giftCardGuesses, keyId: caller.keyId, now }, requested, body.total, 'cards');
    await holdForTerminal(tx, body.reference, plan.parts, body.currency, now);
    return { reference: body.reference, cards: plan.parts.map((part) => ({ code: part.code, amount: { amount: part.amount, currency: body.currency } })) };
  });
}

/**
 * POST /hub/gift-card-holds/{reference}/release: drops the reference's holds (the terminal's checkout failed).
 * Idempotent; holds already settled into an imported order stay (they are its payment) and are answered.
 */
export async function releaseGiftCards(ctx: Ctx, reference: string): Promise<GiftCardHold> {
  return ctx.store.transaction(async (tx) => {
    await lockReference(tx, reference);
    const released = await releaseForTerminal(tx, reference);
    const kept = await tx.giftCards.ofAttempt(reference);
    const [first] = kept;
    const currency = first ? ((await tx.giftCards.cards([first.code]))[0]?.currency ?? '') : '';
    return { ...answer(reference, kept, currency), released: released > 0 };
  });
}

/** one request per reference at a time, across processes too */
async function lockReference(tx: Tx, reference: string): Promise<void> {
  await tx.locks.named(`gift-card-hold:${reference}`);
}

function answer(reference: string, entries: readonly GiftCardEntryRow[], currency: string): GiftCardHold {
  return { reference, cards: entries.map((entry) => ({ code: entry.code, amount: { amount: -entry.amount, currency } })) };
}
