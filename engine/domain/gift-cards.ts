import { EngineError } from './errors';
import type { Money } from './money';

/**
 * Gift cards as payment (issue #24, contract §13), the pure rules: how a typed or scanned code is matched, what
 * a request's parts must look like, and how the parts split a total — each card in the order given takes its
 * `amount`, or without one as much as its balance and the still open rest allow; a card that would take
 * nothing is left out; what is left is the remainder that `method` pays.
 */

/** A code as typed or scanned: case-insensitive, spaces and hyphens ignored. */
export function normalizeGiftCardCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toUpperCase();
}

export interface GiftCardPartRequest {
  readonly code: string;
  readonly amount?: Money | undefined;
}

/** What is known of a card when a payment is planned. */
export interface GiftCardFacts {
  readonly code: string;
  readonly currency: string;
  readonly status: 'active' | 'void';
  readonly balance: number;
}

export interface PlannedPart {
  readonly code: string;
  readonly amount: number;
  /** the card's balance before and after this part */
  readonly balance: number;
  readonly balanceAfter: number;
}

export interface GiftCardPlan {
  readonly parts: readonly PlannedPart[];
  /** what is left for the payment's method */
  readonly remaining: number;
}

/**
 * Checks the parts' own fields (before any card is read): codes normalized, none twice, amounts positive, in the
 * cart's currency and not adding up to more than the total. `param` is the path of the parts (e.g. payment.giftCards).
 */
export function checkGiftCardParts(parts: readonly GiftCardPartRequest[], total: Money, param: string): GiftCardPartRequest[] {
  const seen = new Set<string>();
  let explicit = 0;
  return parts.map((part, i) => {
    const code = normalizeGiftCardCode(part.code);
    if (code === '') throw new EngineError('INVALID_FIELD_VALUE', { param: `${param}[${i}].code`, details: { reason: 'empty' } });
    if (seen.has(code)) throw new EngineError('INVALID_FIELD_VALUE', { param: `${param}[${i}].code`, details: { reason: 'duplicate' } });
    seen.add(code);
    if (part.amount === undefined) return { code };
    if (part.amount.amount <= 0) throw new EngineError('INVALID_FIELD_VALUE', { param: `${param}[${i}].amount`, details: { reason: 'not_positive' } });
    if (part.amount.currency !== total.currency) {
      throw new EngineError('GIFT_CARD_CURRENCY_MISMATCH', { param: `${param}[${i}].amount`, details: { currency: part.amount.currency } });
    }
    explicit += part.amount.amount;
    if (explicit > total.amount) throw new EngineError('INVALID_FIELD_VALUE', { param: `${param}[${i}].amount`, details: { reason: 'more_than_total', total } });
    return { code, amount: part.amount };
  });
}

/**
 * Splits `total` over the cards (each found in `cards` by its normalized code; the caller has refused unknown ones):
 * a void card is 410, a card of another currency 400, an `amount` above the balance 402 with `details.balance`.
 */
export function planGiftCards(parts: readonly GiftCardPartRequest[], cards: ReadonlyMap<string, GiftCardFacts>, total: Money, param: string): GiftCardPlan {
  let open = total.amount;
  const planned: PlannedPart[] = [];
  for (const [i, part] of parts.entries()) {
    const card = cards.get(part.code);
    if (!card) throw new EngineError('GIFT_CARD_NOT_FOUND', { param: `${param}[${i}].code` });
    if (card.status === 'void') throw new EngineError('GIFT_CARD_VOID', { param: `${param}[${i}].code` });
    if (card.currency !== total.currency) throw new EngineError('GIFT_CARD_CURRENCY_MISMATCH', { param: `${param}[${i}].code`, details: { currency: card.currency } });
    const balance = Math.max(0, card.balance);
    if (part.amount !== undefined && part.amount.amount > balance) {
      throw new EngineError('GIFT_CARD_INSUFFICIENT_BALANCE', { param: `${param}[${i}]`, details: { balance: { amount: balance, currency: card.currency } } });
    }
    const take = part.amount?.amount ?? Math.min(balance, open);
    // cards before it without an amount took what this one names
    if (take > open) throw new EngineError('INVALID_FIELD_VALUE', { param: `${param}[${i}].amount`, details: { reason: 'more_than_total', total } });
    if (take <= 0) continue;
    open -= take;
    planned.push({ code: part.code, amount: take, balance, balanceAfter: balance - take });
  }
  return { parts: planned, remaining: open };
}
