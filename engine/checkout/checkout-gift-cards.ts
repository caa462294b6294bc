import { EngineError } from '../domain/errors';
import type { Money } from '../domain/money';
import { checkGiftCardParts, type PlannedPart } from '../domain/gift-cards';
import type { PaymentRequest } from '../contract/order';
import type { ImportGiftCardPayment } from '../contract/gift-card';
import type { GuessThrottle } from '../domain/guess-throttle';
import type { Tx } from '../store/port';
import { holdForTerminal, planGiftCardPayment } from './payments/lifecycle';

/**
 * The gift-card step of a checkout's first transaction (issue #24, contract §13): the parts' own fields, then the
 * cards, locked and read, split the total in the order given. Everything here is found before any charge, so a
 * refusal (4xx, 402 included) leaves the idempotency key unused. The parts are held by the lifecycle when the
 * attempt opens (openAttempt). An imported terminal order brings parts already held at this hub under the
 * terminal's reference: they are checked against those holds (or held now, should the holds be gone).
 */

export interface GiftCardSplit {
  readonly parts: readonly PlannedPart[];
  /** what the payment's method pays */
  readonly remaining: Money;
  /** an imported order's hold reference: its parts are held under it already */
  readonly holdReference?: string;
}

const PARAM = 'payment.giftCards';

/** The split of `total` a checkout's payment asks for; no parts: the method pays it all. */
export async function splitGiftCards(
  tx: Tx,
  guess: { readonly throttle: GuessThrottle; readonly keyId: string; readonly now: number },
  payment: PaymentRequest,
  cartKind: 'ticket' | 'giftCard',
  total: Money,
): Promise<GiftCardSplit> {
  if (payment.method === 'giftCard') {
    if (payment.giftCards === undefined) throw new EngineError('MISSING_REQUIRED_FIELD', { param: PARAM });
    const stray = (['token', 'authenticationResult', 'tendered', 'reference'] as const).find((field) => payment[field] !== undefined);
    if (stray) throw new EngineError('INVALID_FIELD_VALUE', { param: `payment.${stray}`, details: { reason: 'not_for_gift_card' } });
  }
  if (payment.giftCards === undefined) return { parts: [], remaining: total };
  if (payment.method === 'none' || payment.method === 'external') {
    throw new EngineError('INVALID_FIELD_VALUE', { param: PARAM, details: { reason: `not_for_${payment.method}` } });
  }
  const requested = checkGiftCardParts(payment.giftCards, total, PARAM);
  if (cartKind === 'giftCard') throw new EngineError('GIFT_CARD_NOT_ACCEPTED', { param: PARAM });
  const plan = await planGiftCardPayment(tx, guess, requested, total, PARAM);
  const remaining = { amount: plan.remaining, currency: total.currency };
  if (payment.method === 'giftCard' && plan.remaining > 0) {
    throw new EngineError('GIFT_CARD_INSUFFICIENT_BALANCE', { param: PARAM, details: { remaining } });
  }
  return { parts: plan.parts, remaining };
}

/**
 * An imported terminal order's parts (contract §10): held at this hub under `holdReference` when the terminal
 * checked out. The holds must be the parts named; when they are gone (released), they are held again now, if the
 * balances still allow. Settled already (another order took them): refused.
 */
export async function heldGiftCards(
  tx: Tx,
  guess: { readonly throttle: GuessThrottle; readonly keyId: string; readonly now: number },
  held: ImportGiftCardPayment,
  cartKind: 'ticket' | 'giftCard',
  total: Money,
): Promise<GiftCardSplit> {
  const param = 'payment.giftCards';
  const requested = checkGiftCardParts(held.giftCards, total, param);
  if (cartKind === 'giftCard') throw new EngineError('GIFT_CARD_NOT_ACCEPTED', { param });
  const taken = requested.reduce((sum, part) => sum + (part.amount?.amount ?? 0), 0);
  const remaining = { amount: total.amount - taken, currency: total.currency };
  const entries = await tx.giftCards.ofAttempt(held.holdReference);
  if (entries.some((entry) => entry.state === 'settled')) {
    throw new EngineError('INVALID_FIELD_VALUE', { param: 'payment.holdReference', details: { reason: 'hold_settled' } });
  }
  if (entries.length > 0) {
    const same = entries.length === requested.length
      && entries.every((entry, i) => entry.code === requested[i]?.code && -entry.amount === requested[i]?.amount?.amount);
    if (!same) throw new EngineError('INVALID_FIELD_VALUE', { param, details: { reason: 'not_the_held_parts' } });
    const parts = entries.map((entry) => ({ code: entry.code, amount: -entry.amount, balance: 0, balanceAfter: 0 }));
    return { parts, remaining, holdReference: held.holdReference };
  }
  const plan = await planGiftCardPayment(tx, guess, requested, total, param);
  await holdForTerminal(tx, held.holdReference, plan.parts, total.currency, guess.now);
  return { parts: plan.parts, remaining, holdReference: held.holdReference };
}
