import { EngineError } from '../domain/errors';
import { checkGiftCardParts, terminalHoldKey } from '../domain/gift-cards';
import type { Caller } from '../domain/scopes';
import type { GiftCardHold, GiftCardHoldBody } from '../contract/gift-card';
import type { GiftCardEntryRow } from '../store/gift-card-repo';
import type { Clock, GiftCardGuesses, Storage } from '../shared/context';
import type { Tx } from '../store/port';
import { holdForTerminal, planGiftCardPayment, releaseForTerminal } from '../checkout/payments/lifecycle';

/**
 * A hub's gift-card holds for its terminals (contract §10, §13): at a terminal the cards live at its hub, so a
 * terminal checkout with gift cards holds its parts here within the request, under its own payment attempt id
 * (`reference`), before it charges the rest. The import of its order settles the holds into redemptions of the
 * imported order (sync/import-orders.ts); a failed checkout releases them. Both are idempotent per reference.
 */

type Ctx = Storage & Clock & GiftCardGuesses;

/** POST /hub/gift-card-holds: holds the parts (the same refusals as a checkout's), or answers the holds made before. */
export async function holdGiftCards(ctx: Ctx, caller: Caller, body: GiftCardHoldBody): Promise<GiftCardHold> {
  const now = ctx.now();
  const key = terminalHoldKey(caller.keyId, body.reference);
  return ctx.store.transaction(async (tx) => {
    await lockReference(tx, key);
    const earlier = await tx.giftCards.ofAttempt(key);
    if (earlier.length > 0) return answer(tx, body.reference, earlier, body.currency);
    if (body.total.currency !== body.currency) {
      throw new EngineError('INVALID_FIELD_VALUE', { param: 'total.currency', details: { reason: 'not_the_currency' } });
    }
    const requested = checkGiftCardParts(body.cards, body.total, 'cards');
    const plan = await planGiftCardPayment(tx, { throttle: ctx.giftCardGuesses, keyId: caller.keyId, now }, requested, body.total, 'cards');
    await holdForTerminal(tx, key, plan.parts, body.currency, now);
    return answer(tx, body.reference, await tx.giftCards.ofAttempt(key), body.currency);
  });
}

/**
 * POST /hub/gift-card-holds/{reference}/release: drops the reference's holds (the terminal's checkout failed).
 * Idempotent; holds already settled into an imported order stay (they are its payment) and are answered.
 */
export async function releaseGiftCards(ctx: Ctx, caller: Caller, reference: string): Promise<GiftCardHold> {
  const key = terminalHoldKey(caller.keyId, reference);
  return ctx.store.transaction(async (tx) => {
    await lockReference(tx, key);
    const released = await releaseForTerminal(tx, key);
    const kept = await tx.giftCards.ofAttempt(key);
    const [first] = kept;
    const currency = first ? ((await tx.giftCards.cards([first.code]))[0]?.currency ?? '') : '';
    return { ...(await answer(tx, reference, kept, currency)), released: released > 0 };
  });
}

/** one request per reference at a time, across processes too */
async function lockReference(tx: Tx, reference: string): Promise<void> {
  await tx.locks.named(`gift-card-hold:${reference}`);
}

/**
 * The reference's parts, each with what its card has left right after it (a terminal's receipt prints it): a held
 * part's card balance now (the hold is out of it already), a settled one's balance_after.
 */
async function answer(tx: Tx, reference: string, entries: readonly GiftCardEntryRow[], currency: string): Promise<GiftCardHold> {
  const held = entries.filter((entry) => entry.state === 'held').map((entry) => entry.code);
  const balances = new Map((held.length > 0 ? await tx.giftCards.cards(held) : []).map((card) => [card.code, card.balance]));
  const money = (amount: number) => ({ amount, currency });
  return {
    reference,
    cards: entries.map((entry) => {
      const after = entry.state === 'held' ? balances.get(entry.code) : entry.balanceAfter;
      return { code: entry.code, amount: money(-entry.amount), ...(after !== undefined && after !== null && { balanceAfter: money(Math.max(0, after)) }) };
    }),
  };
}
