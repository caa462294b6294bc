import { EngineError } from '../domain/errors';
import type { Money } from '../domain/money';
import { maxTendered, type FailureOutcome, type PaymentMethod } from '../domain/payment-attempt';
import { scaleOf } from '../domain/currencies';
import type { AttemptRow } from '../store/checkout-repo';
import type { Clock, Durability, GiftCardGuesses, Storage } from '../shared/context';
import type { Tx } from '../store/port';
import type { StoredPayment } from './checkout-begin';
import { chargeRemainder, failAttempt, refuseGiftCardGuesses } from './payments/lifecycle';
import { checkGiftCardParts } from '../domain/gift-cards';
import type { GuessThrottle } from '../domain/guess-throttle';
import type { PaymentRequest } from '../contract/order';

const PARAM = 'payment.giftCards';

/**
 * A terminal's gift-card parts, held at its hub (issue #24, contract §13 and §10). At a terminal the cards live at
 * the hub, so its checkout cannot hold them in its first transaction: that transaction keeps what was asked
 * (`hub` in the attempt's stored request) and leaves the attempt pending, on the disk; then the hub is asked,
 * within the request, to hold the parts under the attempt's id; then a second transaction records what the hub
 * held and what is left for `method` (the remainder, checked here as the first transaction checks a total) — or
 * fails the attempt before anything is charged. From there the checkout goes on as any other: the remainder is
 * charged, and the settlement makes the order (whose sync import carries the parts and the reference, so the hub
 * settles its holds with it) or fails it (and the outbox releases the hold at the hub, checkout-settle.ts).
 *
 * Every failure here comes before any charge and forgets the idempotency key, as a refusal of the first
 * transaction leaves it unused: the customer may try again with the same key (another card, or once the hub is
 * back). A hub that may hold something it never confirmed (no answer, a 5xx) gets a `gift-card-release` entry.
 */

export interface GiftCardPartRequest {
  readonly code: string;
  readonly amount?: Money;
}

/** What the hub held of one card for the checkout. */
export interface HeldPart {
  readonly code: string;
  readonly amount: Money;
  /** what the card had left right after the part was held (the receipt prints it), when the hub says */
  readonly balanceAfter?: Money;
}

export type HoldOutcome =
  | { readonly kind: 'held'; readonly parts: readonly HeldPart[] }
  /** the hub refused (an unknown or void card, its balance, currency, throttle): it holds nothing */
  | { readonly kind: 'refused'; readonly error: EngineError }
  /** no usable answer; `maybeHeld` when the request may have reached the hub, whose hold must then be released */
  | { readonly kind: 'unavailable'; readonly maybeHeld: boolean; readonly error: EngineError };

/** The hub, as a terminal's checkout sees it (engine/sync/hub-gift-cards.ts). */
export interface GiftCardHub {
  hold(request: { reference: string; currency: string; cards: readonly GiftCardPartRequest[]; total: Money }): Promise<HoldOutcome>;
}

/** What a terminal's attempt keeps of its gift cards: what was asked, of which total, and what the hub held. */
export interface HubGiftCards {
  readonly cards: readonly GiftCardPartRequest[];
  readonly total: Money;
  readonly parts?: readonly HeldPart[];
}

/**
 * The first transaction's part at a terminal (contract §13, giftcards.md): the parts' own fields are checked as a
 * checkout checks them (checkGiftCardParts: duplicate, not positive, currency, more than the total; a gift-card
 * cart refused), and the key's unknown-code throttle; the cards themselves are the hub's to check. Answers what
 * the attempt keeps (`hub`), or undefined when the payment names no gift cards.
 */
export function cardsForHub(
  guess: { readonly throttle: GuessThrottle; readonly keyId: string; readonly now: number },
  payment: PaymentRequest,
  cartKind: 'ticket' | 'giftCard',
  total: Money,
): HubGiftCards | undefined {
  if (payment.giftCards === undefined) return undefined;
  if (payment.method === 'none' || payment.method === 'external') {
    throw new EngineError('INVALID_FIELD_VALUE', { param: PARAM, details: { reason: `not_for_${payment.method}` } });
  }
  if (payment.method === 'giftCard') {
    const stray = (['token', 'authenticationResult', 'tendered', 'reference'] as const).find((field) => payment[field] !== undefined);
    if (stray) throw new EngineError('INVALID_FIELD_VALUE', { param: `payment.${stray}`, details: { reason: 'not_for_gift_card' } });
  }
  const cards = checkGiftCardParts(payment.giftCards, total, PARAM);
  if (cartKind === 'giftCard') throw new EngineError('GIFT_CARD_NOT_ACCEPTED', { param: PARAM });
  refuseGiftCardGuesses(guess.throttle, guess.keyId, guess.now);
  return { cards: cards.map((card) => ({ code: card.code, ...(card.amount !== undefined && { amount: card.amount }) })), total };
}

/** The hub's part of an attempt made at a terminal with gift cards; undefined for any other attempt. */
export function hubGiftCardsOf(attempt: Pick<AttemptRow, 'request'>): HubGiftCards | undefined {
  return (JSON.parse(attempt.request) as StoredPayment).hub;
}

/**
 * Holds the attempt's parts at the hub and records them; answers the attempt as it is now charged (the remainder),
 * or the error to answer (the attempt failed, nothing charged). An attempt of no hub parts is answered as it is.
 */
export async function holdAtHub(ctx: Storage & Clock & Durability & GiftCardGuesses, hub: GiftCardHub, attempt: AttemptRow): Promise<{ readonly attempt: AttemptRow } | { readonly error: EngineError }> {
  const stored = JSON.parse(attempt.request) as StoredPayment;
  const asked = stored.hub;
  if (asked === undefined) return { attempt };
  // the attempt is on the disk before the hub hears of its reference: a hold a restart can find and release
  await ctx.whenDurable();
  const outcome = await hub.hold({ reference: attempt.id, currency: attempt.currency, cards: asked.cards, total: asked.total });
  return ctx.store.transaction(async (tx) => {
    await tx.locks.idempotencyKey(attempt.apiKeyId, attempt.idempotencyKey);
    await tx.locks.cart(attempt.cartId);
    await tx.locks.attempt(attempt.id);
    const current = await tx.checkout.attempt(attempt.id);
    // settled meanwhile by someone else (it was not ours to finish); its settlement released the hold
    if (current?.state !== 'pending') return { error: new EngineError('IDEMPOTENCY_KEY_IN_PROGRESS') };
    const now = ctx.now();
    if (outcome.kind === 'refused') {
      // an unknown code counts against the caller's key here as at the hub (the throttle, giftcards.md)
      if (outcome.error.code === 'GIFT_CARD_NOT_FOUND') ctx.giftCardGuesses.miss(attempt.apiKeyId, now);
      return failBeforeCharge(tx, current, 'not_charged', outcome.error, false, now);
    }
    if (outcome.kind === 'unavailable') return failBeforeCharge(tx, current, 'unavailable', outcome.error, outcome.maybeHeld, now);
    const charge = remainderOf(stored, asked, outcome.parts, current);
    if ('error' in charge) return failBeforeCharge(tx, current, 'not_charged', charge.error, true, now);
    await chargeRemainder(tx, current.id, charge);
    return { attempt: { ...current, ...charge } };
  });
}

/**
 * What is left for `method` once the hub held `parts`, checked as the first transaction checks a payment: the
 * cards covering everything make it a `giftCard` payment (nothing charged); `giftCard` not covered is 402 with
 * `details.remaining`; cash tendered must cover the remainder (and not exceed what a till takes for it).
 */
function remainderOf(stored: StoredPayment, asked: HubGiftCards, parts: readonly HeldPart[], attempt: AttemptRow): { method: PaymentMethod; amount: number; request: string } | { error: EngineError } {
  const currency = asked.total.currency;
  const taken = parts.reduce((sum, part) => sum + part.amount.amount, 0);
  if (parts.some((part) => part.amount.currency !== currency || part.amount.amount <= 0) || taken > asked.total.amount) {
    return { error: new EngineError('UPSTREAM_UNAVAILABLE', { details: { reason: 'hub_answer_unknown' } }) };
  }
  const remainder = asked.total.amount - taken;
  const hub: HubGiftCards = { ...asked, parts };
  // the cards paid it all: nothing is charged, whatever `method` said (a total of 0 needs no payment at all)
  if (remainder === 0) return { method: parts.length > 0 ? 'giftCard' : 'none', amount: parts.length > 0 ? asked.total.amount : 0, request: JSON.stringify({ hub }) };
  const remaining = { amount: remainder, currency };
  if (attempt.method === 'giftCard') return { error: new EngineError('GIFT_CARD_INSUFFICIENT_BALANCE', { param: 'payment.giftCards', details: { remaining } }) };
  if (attempt.method !== 'cash') return { method: attempt.method, amount: remainder, request: JSON.stringify({ ...stored, hub }) };
  const tendered = stored.tendered ?? remaining;
  if (tendered.amount < remainder) {
    return { error: new EngineError('INVALID_FIELD_VALUE', { param: 'payment.tendered.amount', details: { reason: 'less_than_total', total: remaining } }) };
  }
  const most = maxTendered(remainder, scaleOf(currency));
  if (tendered.amount > most) {
    return {
      error: new EngineError('INVALID_FIELD_VALUE', {
        param: 'payment.tendered.amount',
        details: { reason: 'more_than_max_tendered', total: remaining, maxTendered: { amount: most, currency } },
      }),
    };
  }
  return { method: 'cash', amount: remainder, request: JSON.stringify({ ...stored, tendered, hub }) };
}

/** The attempt fails before any charge: its vouchers back, its key unused, and the hub's hold released when it may exist. */
async function failBeforeCharge(tx: Tx, attempt: AttemptRow, outcome: FailureOutcome, error: EngineError, release: boolean, now: number): Promise<{ readonly error: EngineError }> {
  await failAttempt(tx, attempt.id, outcome);
  await tx.checkout.releaseVouchers(attempt.id);
  await tx.checkout.forgetKey(attempt.apiKeyId, attempt.idempotencyKey);
  if (release) await tx.outbox.add('gift-card-release', attempt.id, now);
  return { error };
}
