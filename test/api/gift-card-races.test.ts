import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { giftCardOf, parts, payWithGiftCards, sellGiftCard, splitOrderOf } from '../helpers/gift-cards';
import { eur, expectError } from '../helpers/orders';

/**
 * Races the ledger must win (design of issue #24): cancelling the order that sold a card while the card is being
 * spent — the card is either voided and the spend refused 410, or spent and the cancel refused 409, never both
 * done — and refunds onto a card while other checkouts spend it. No answer is a 5xx.
 */

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

describe('races on one card', () => {
  it('the sale cancelled while the card pays: void and refused, or spent and the cancel refused — never both', async () => {
    const rounds = await Promise.all(Array.from({ length: 10 }, async () => {
      const { code, order: issuing } = await sellGiftCard(engine, 'gift-50');
      const cart = await createCart(engine, [concert(1, 'standing-student', 'brass-2027-03-13')]);
      return { code, issuing, cart };
    }));
    const outcomes = await Promise.all(rounds.map(async ({ code, issuing, cart }) => {
      const [cancelled, paid] = await Promise.all([
        engine.request('POST', `/orders/${issuing.id}/cancel`),
        payWithGiftCards(engine, cart.id, cart.total, { method: 'giftCard', giftCards: parts([code]) }),
      ]);
      return { code, cancelled, paid };
    }));
    for (const { code, cancelled, paid } of outcomes) {
      const view = await giftCardOf(engine, code);
      if (cancelled.status === 200) {
        expectError(paid, 410, 'GIFT_CARD_VOID');
        expect([view.status, view.balance, view.transactions.length]).toEqual(['void', eur(0), 1]);
      } else {
        expectError(cancelled, 409, 'GIFT_CARD_ALREADY_USED');
        splitOrderOf(paid);
        expect([view.status, view.balance]).toEqual(['active', eur(5000 - 2900)]);
      }
    }
  });

  it('refunds onto a card while others spend it: the balance is always what the ledger says, never below zero', async () => {
    const { code } = await sellGiftCard(engine, 'gift-100');
    // three orders take 3 × 2900 = 8700; the card has 1300 left
    const spent = [];
    for (let i = 0; i < 3; i++) {
      const cart = await createCart(engine, [concert(1, 'standing-student', 'brass-2027-03-13')]);
      spent.push(splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'giftCard', giftCards: parts([code]) })));
    }
    const carts = [];
    for (let i = 0; i < 8; i++) carts.push(await createCart(engine, [concert(1, 'standing-student', 'brass-2027-03-13')]));
    const answers = await Promise.all([
      ...spent.map((order) => engine.request('POST', `/orders/${order.id}/cancel`)),
      ...carts.map((cart) => payWithGiftCards(engine, cart.id, cart.total, { method: 'giftCard', giftCards: parts([code]) })),
    ]);
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    for (const answer of answers.slice(0, 3)) expect(answer.status).toBe(200);
    const paid = answers.slice(3).filter((answer) => answer.status === 201).length;
    for (const answer of answers.slice(3).filter((a) => a.status !== 201)) expectError(answer, 402, 'GIFT_CARD_INSUFFICIENT_BALANCE');
    const view = await giftCardOf(engine, code);
    // 10000 − 8700 + 8700 refunded − 2900 per new order
    expect(view.balance.amount).toBe(10000 - paid * 2900);
    expect(view.transactions).toHaveLength(3 + 3 + paid);
  });

  it('one split order cancelled five times at once: each card part goes back once', async () => {
    const { code } = await sellGiftCard(engine, 'gift-50');
    const cart = await createCart(engine, [concert(2, 'standing-student', 'brass-2027-03-13')]); // 5800
    const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: parts([code, 4000]) }));
    const answers = await Promise.all(Array.from({ length: 5 }, () => engine.request('POST', `/orders/${order.id}/cancel`)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    const view = await giftCardOf(engine, code);
    expect(view.balance).toEqual(eur(5000));
    expect(view.transactions.map((entry) => entry.amount.amount)).toEqual([-4000, 4000]);
  });

  it('the sale of an unused card cancelled five times at once: voided once', async () => {
    const { code, order } = await sellGiftCard(engine, 'gift-50');
    const answers = await Promise.all(Array.from({ length: 5 }, () => engine.request('POST', `/orders/${order.id}/cancel`)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    const view = await giftCardOf(engine, code);
    expect([view.status, view.balance, view.transactions.map((entry) => entry.amount.amount)]).toEqual(['void', eur(0), [-5000]]);
  });
});
