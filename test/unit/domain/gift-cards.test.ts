import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../engine/domain/errors';
import { checkGiftCardParts, normalizeGiftCardCode, planGiftCards, type GiftCardFacts } from '../../../engine/domain/gift-cards';
import { createGuessThrottle, GUESS_LIMIT, GUESS_WINDOW_MS } from '../../../engine/domain/guess-throttle';

/** The pure rules of gift cards as payment (issue #24): codes as typed, the parts' own checks, the split, the throttle. */

const eur = (amount: number) => ({ amount, currency: 'EUR' });
const cards = (...list: GiftCardFacts[]) => new Map(list.map((card) => [card.code, card]));
const active = (code: string, balance: number): GiftCardFacts => ({ code, currency: 'EUR', status: 'active', balance });
const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof EngineError) return { code: error.code, param: error.param, details: error.details };
    throw error;
  }
  throw new Error('not refused');
};

describe('gift-card codes and parts', () => {
  it('matches a code case-insensitively, spaces and hyphens ignored', () => {
    expect(normalizeGiftCardCode(' ab-cd efG-h ')).toBe('ABCDEFGH');
  });

  it('refuses the same code twice, amounts of 0, of another currency, and explicit amounts above the total', () => {
    expect(refusal(() => checkGiftCardParts([{ code: 'abc' }, { code: 'A-B-C' }], eur(100), 'p'))).toMatchObject({ code: 'INVALID_FIELD_VALUE', param: 'p[1].code', details: { reason: 'duplicate' } });
    expect(refusal(() => checkGiftCardParts([{ code: 'A', amount: eur(0) }], eur(100), 'p'))).toMatchObject({ param: 'p[0].amount', details: { reason: 'not_positive' } });
    expect(refusal(() => checkGiftCardParts([{ code: 'A', amount: { amount: 5, currency: 'USD' } }], eur(100), 'p'))).toMatchObject({ code: 'GIFT_CARD_CURRENCY_MISMATCH', details: { currency: 'USD' } });
    expect(refusal(() => checkGiftCardParts([{ code: 'A', amount: eur(60) }, { code: 'B', amount: eur(41) }], eur(100), 'p'))).toMatchObject({ param: 'p[1].amount', details: { reason: 'more_than_total' } });
  });
});

describe('the split of a total over the cards', () => {
  it('takes each card in order, as much as its balance and the open rest allow; a card that would take nothing is left out', () => {
    const plan = planGiftCards([{ code: 'A' }, { code: 'B' }, { code: 'C' }], cards(active('A', 3000), active('B', 5000), active('C', 100)), eur(7800), 'p');
    expect(plan).toEqual({
      parts: [{ code: 'A', amount: 3000, balance: 3000, balanceAfter: 0 }, { code: 'B', amount: 4800, balance: 5000, balanceAfter: 200 }],
      remaining: 0,
    });
  });

  it('takes an explicit amount, refuses one above the balance (402, details.balance) or above what earlier cards left open', () => {
    expect(planGiftCards([{ code: 'A', amount: eur(1000) }], cards(active('A', 3000)), eur(7800), 'p')).toEqual({ parts: [{ code: 'A', amount: 1000, balance: 3000, balanceAfter: 2000 }], remaining: 6800 });
    expect(refusal(() => planGiftCards([{ code: 'A', amount: eur(3001) }], cards(active('A', 3000)), eur(7800), 'p'))).toEqual({ code: 'GIFT_CARD_INSUFFICIENT_BALANCE', param: 'p[0]', details: { balance: eur(3000) } });
    expect(refusal(() => planGiftCards([{ code: 'A' }, { code: 'B', amount: eur(100) }], cards(active('A', 9000), active('B', 500)), eur(7800), 'p'))).toMatchObject({ param: 'p[1].amount', details: { reason: 'more_than_total' } });
  });

  it('refuses an unknown (404), a void (410) and a foreign-currency card (400), naming it', () => {
    expect(refusal(() => planGiftCards([{ code: 'X' }], cards(), eur(1), 'p'))).toMatchObject({ code: 'GIFT_CARD_NOT_FOUND', param: 'p[0].code' });
    expect(refusal(() => planGiftCards([{ code: 'A' }], cards({ ...active('A', 5), status: 'void' }), eur(1), 'p'))).toMatchObject({ code: 'GIFT_CARD_VOID' });
    expect(refusal(() => planGiftCards([{ code: 'A' }], cards({ ...active('A', 5), currency: 'CHF' }), eur(1), 'p'))).toMatchObject({ code: 'GIFT_CARD_CURRENCY_MISMATCH', details: { currency: 'CHF' } });
  });
});

describe('the unknown-code throttle (shipped: 10 a minute per key)', () => {
  it('refuses the key after 10 misses until the oldest of them is a minute old; other keys go on', () => {
    expect([GUESS_LIMIT, GUESS_WINDOW_MS]).toEqual([10, 60_000]);
    const throttle = createGuessThrottle();
    for (let i = 0; i < 9; i++) throttle.miss('k', 1_000 + i * 1000);
    expect(throttle.retryAfter('k', 10_000)).toBe(0);
    throttle.miss('k', 10_000);
    expect(throttle.retryAfter('k', 10_000)).toBe(51); // the first miss (at 1 s) leaves the window at 61 s
    expect(throttle.retryAfter('other', 10_000)).toBe(0);
    expect(throttle.retryAfter('k', 60_999)).toBe(1);
    expect(throttle.retryAfter('k', 61_000)).toBe(0);
  });
});
