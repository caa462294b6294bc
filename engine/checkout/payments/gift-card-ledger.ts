import { EngineError } from '../../domain/errors';
import type { Money } from '../../domain/money';
import { planGiftCards, type GiftCardPartRequest, type GiftCardPlan, type PlannedPart } from '../../domain/gift-cards';
import type { GuessThrottle } from '../../domain/guess-throttle';
import type { Tx } from '../../store/port';

/**
 * The gift-card ledger's writes (issue #24, contract §13), called by the payment lifecycle alone (lifecycle.ts):
 * a checkout's parts are held in its first transaction, become settled redemptions with its order, are dropped
 * with its failure, and go back onto the cards with its cancellation; an issuing order's cancellation voids its
 * cards. Every write runs in the caller's transaction with the cards' rows locked (Locks.giftCards, in code order,
 * after the attempt): concurrent spends of one card never take it below zero, on any number of processes.
 */

const sortedCodes = (codes: Iterable<string>): string[] => [...new Set(codes)].sort();

/**
 * Locks and reads the cards of `parts` (normalized codes) and splits `total` over them. Unknown codes count
 * against the key (`guesses`); a key over the limit is 429 before any card is read.
 */
export async function planPayment(
  tx: Tx,
  guess: { readonly throttle: GuessThrottle; readonly keyId: string; readonly now: number },
  parts: readonly GiftCardPartRequest[],
  total: Money,
  param: string,
): Promise<GiftCardPlan> {
  refuseThrottled(guess.throttle, guess.keyId, guess.now);
  const codes = sortedCodes(parts.map((part) => part.code));
  await tx.locks.giftCards(codes);
  const cards = new Map((await tx.giftCards.cards(codes)).map((card) => [card.code, card]));
  const unknown = parts.filter((part) => !cards.has(part.code)).length;
  if (unknown > 0) guess.throttle.miss(guess.keyId, guess.now, unknown);
  return planGiftCards(parts, cards, total, param);
}

/** 429 RATE_LIMIT_EXCEEDED with its Retry-After while the key has guessed too many unknown codes. */
export function refuseThrottled(throttle: GuessThrottle, keyId: string, now: number): void {
  const retryAfter = throttle.retryAfter(keyId, now);
  if (retryAfter > 0) throw new EngineError('RATE_LIMIT_EXCEEDED', { details: { retryAfter } });
}

/** Holds each part for `holder` (a payment attempt, or a terminal's hold reference at a hub); the cards are locked. */
export async function holdParts(tx: Tx, holder: string, parts: readonly PlannedPart[], currency: string, now: number): Promise<void> {
  await tx.locks.giftCards(sortedCodes(parts.map((part) => part.code)));
  for (const [i, part] of parts.entries()) {
    if (!(await tx.giftCards.hold(part.code, part.amount, holder, now))) {
      const [card] = await tx.giftCards.cards([part.code]);
      throw new EngineError('GIFT_CARD_INSUFFICIENT_BALANCE', { param: `payment.giftCards[${i}]`, details: { balance: { amount: Math.max(0, card?.balance ?? 0), currency } } });
    }
  }
}

/** The holder's holds become settled redemptions of `orderId`, each with its card's balance right after it. */
export async function settleHolds(tx: Tx, holder: string, orderId: string, now: number): Promise<void> {
  const held = await tx.giftCards.ofAttempt(holder);
  if (held.length === 0) return;
  await tx.locks.giftCards(sortedCodes(held.map((entry) => entry.code)));
  await tx.giftCards.settle(holder, orderId, now);
}

/** Drops the holder's holds: their amounts are back on the cards. */
export async function releaseHolds(tx: Tx, holder: string): Promise<number> {
  return tx.giftCards.release(holder);
}

/** Puts each card part of a cancelled order back on its card (settled refund entries). */
export async function refundParts(tx: Tx, orderId: string, now: number): Promise<void> {
  const parts = (await tx.giftCards.ofOrders([orderId])).filter((entry) => entry.kind === 'redeem' && entry.state === 'settled');
  if (parts.length === 0) return;
  await tx.locks.giftCards(sortedCodes(parts.map((entry) => entry.code)));
  await tx.giftCards.refundOrder(orderId, now);
}

/**
 * Voids the cards a cancelled order issued, or refuses (409 GIFT_CARD_ALREADY_USED, details.code) when any of them
 * was ever spent — held by a checkout in progress too.
 */
export async function voidIssued(tx: Tx, orderId: string, now: number): Promise<void> {
  const issued = await tx.orders.giftCards([orderId]);
  if (issued.length === 0) return;
  await tx.locks.giftCards(sortedCodes(issued.map((card) => card.code)));
  const used = await tx.giftCards.usedIssued(orderId);
  if (used !== undefined) throw new EngineError('GIFT_CARD_ALREADY_USED', { param: 'orderId', details: { code: used } });
  await tx.giftCards.voidIssued(orderId, now);
}
