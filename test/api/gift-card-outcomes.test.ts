import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart, seat, type Cart } from '../helpers/cart-assertions';
import { startTestEngine, type ApiResponse, type TestEngine } from '../helpers/engine';
import { balanceOf, giftCardOf, parts, payWithGiftCards, readGiftCard, sellGiftCard, splitOrderOf } from '../helpers/gift-cards';
import { authenticationResultOf, challengeOf, eur, expectError, newKey, ordersOfCart, paymentUnderWay, replayed } from '../helpers/orders';

/**
 * All or nothing (contract §13): the card parts and the order are one outcome. When the rest's bank card is
 * declined, needs 3-D Secure, fails the risk check or the provider is down, no card loses balance and there is
 * no order; a checkout still at the provider holds its part out of the balance. Concurrent spends of one card
 * never take it below zero.
 */

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

const OUTCOMES = [
  { token: 'tok_declined', status: 402, code: 'PAYMENT_DECLINED' },
  { token: 'tok_3ds', status: 402, code: 'PAYMENT_AUTHENTICATION_REQUIRED' },
  { token: 'tok_risk', status: 403, code: 'RISK_CHECK_FAILED' },
  { token: 'tok_provider_down', status: 502, code: 'PAYMENT_PROVIDER_UNAVAILABLE' },
] as const;

describe('all or nothing with the outcome of the rest', () => {
  for (const outcome of OUTCOMES) {
    it(`${outcome.token}: ${outcome.status} ${outcome.code}, both cards keep their balance, no order; then the parts pay with a working card`, async () => {
      const { code: first } = await sellGiftCard(engine, 'gift-25');
      const { code: second } = await sellGiftCard(engine, 'gift-50');
      const cart = await createCart(engine, [concert(3)]); // 11700: 2500 + 2000 from cards, 7200 by bank card
      const payment = { method: 'card' as const, token: outcome.token, giftCards: parts([first], [second, 2000]) };
      expectError(await payWithGiftCards(engine, cart.id, cart.total, payment), outcome.status, outcome.code);
      for (const [code, value] of [[first, 2500], [second, 5000]] as const) {
        const view = await giftCardOf(engine, code);
        expect([view.balance, view.transactions]).toEqual([eur(value), []]);
      }
      expect(await ordersOfCart(engine, cart.id)).toEqual([]);
      let again = cart;
      if (outcome.token === 'tok_risk') {
        // a cart the risk check declined stays declined (payment-rules), whatever pays: the cards keep their balance
        expectError(await payWithGiftCards(engine, cart.id, cart.total, { ...payment, token: 'tok_visa' }), 403, 'RISK_CHECK_FAILED');
        expect([await balanceOf(engine, first), await balanceOf(engine, second)]).toEqual([2500, 5000]);
        again = await createCart(engine, [concert(3)]);
      }
      const paid = splitOrderOf(await payWithGiftCards(engine, again.id, again.total, { ...payment, token: 'tok_visa' }));
      expect(paid.payment).toMatchObject({ method: 'card', amount: eur(7200), giftCards: [{ code: first, amount: eur(2500) }, { code: second, amount: eur(2000) }] });
      expect([await balanceOf(engine, first), await balanceOf(engine, second)]).toEqual([0, 3000]);
    });
  }

  it('a declined rest retires the key (as before): the same key answers 409 IDEMPOTENCY_KEY_FAILED and takes nothing', async () => {
    const { code } = await sellGiftCard(engine, 'gift-50');
    const cart = await createCart(engine, [concert(2)]);
    const key = newKey();
    const payment = { method: 'card' as const, token: 'tok_declined', giftCards: parts([code, 1000]) };
    expectError(await payWithGiftCards(engine, cart.id, cart.total, payment, { idempotencyKey: key }), 402, 'PAYMENT_DECLINED');
    expectError(await payWithGiftCards(engine, cart.id, cart.total, { ...payment, token: 'tok_visa' }, { idempotencyKey: key }), 409, 'IDEMPOTENCY_KEY_FAILED');
    expect(await balanceOf(engine, code)).toBe(5000);
  });

  it('a provider failure does not retire the key: the same key with a working card makes the order, the card debited once', async () => {
    const { code } = await sellGiftCard(engine, 'gift-50');
    const cart = await createCart(engine, [concert(2)]);
    const key = newKey();
    const payment = { method: 'card' as const, token: 'tok_provider_down', giftCards: parts([code, 1000]) };
    expectError(await payWithGiftCards(engine, cart.id, cart.total, payment, { idempotencyKey: key }), 502, 'PAYMENT_PROVIDER_UNAVAILABLE');
    splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { ...payment, token: 'tok_visa' }, { idempotencyKey: key }));
    const replay = await payWithGiftCards(engine, cart.id, cart.total, { ...payment, token: 'tok_visa' }, { idempotencyKey: key });
    expect(replayed(replay)).toBe('true');
    expect(await balanceOf(engine, code)).toBe(4000);
  });

  it('3-D Secure: nothing taken on the challenge; approved and sent again with a new key, the card is debited once', async () => {
    const { code } = await sellGiftCard(engine, 'gift-50');
    const cart = await createCart(engine, [concert(2)]);
    const giftCards = parts([code, 1500]);
    const challenge = challengeOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'card', token: 'tok_3ds', giftCards }));
    expect(await balanceOf(engine, code)).toBe(5000);
    const authenticationResult = await authenticationResultOf(engine, challenge.reference, 'approve');
    const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'card', token: 'tok_3ds', authenticationResult, giftCards }));
    expect(order.payment).toMatchObject({ method: 'card', amount: eur(6300), giftCards: [{ code, amount: eur(1500) }] });
    expect(await balanceOf(engine, code)).toBe(3500);
  });

  it('3-D Secure rejected: 402 PAYMENT_DECLINED, the card keeps its balance', async () => {
    const { code } = await sellGiftCard(engine, 'gift-50');
    const cart = await createCart(engine, [concert(1)]);
    const giftCards = parts([code, 1500]);
    const challenge = challengeOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'card', token: 'tok_3ds', giftCards }));
    const authenticationResult = await authenticationResultOf(engine, challenge.reference, 'reject');
    expectError(await payWithGiftCards(engine, cart.id, cart.total, { method: 'card', token: 'tok_3ds', authenticationResult, giftCards }), 402, 'PAYMENT_DECLINED');
    const view = await giftCardOf(engine, code);
    expect([view.balance, view.transactions]).toEqual([eur(5000), []]);
  });
});

describe('a checkout still at the provider holds its part', () => {
  let slow: TestEngine;
  beforeAll(async () => {
    slow = await startTestEngine({ paymentDeadlineMs: 3000 });
  });
  afterAll(() => slow.close());

  it('out of the balance while it waits (not yet a transaction), another spend cannot take it, the issuing order cannot be cancelled; back when it fails', async () => {
    const { code, order: issuing } = await sellGiftCard(slow, 'gift-50');
    const cart = await createCart(slow, [concert(2)]);
    const paying = payWithGiftCards(slow, cart.id, cart.total, { method: 'card', token: 'tok_timeout', giftCards: parts([code, 4000]) });
    await paymentUnderWay(slow);
    const held = await readGiftCard(slow, code);
    expect([held.balance, held.transactions]).toEqual([eur(1000), []]);
    const other = await createCart(slow, [concert(1)]);
    const refused = expectError(await payWithGiftCards(slow, other.id, other.total, { method: 'card', token: 'tok_visa', giftCards: parts([code, 2000]) }), 402, 'GIFT_CARD_INSUFFICIENT_BALANCE', 'payment.giftCards[0]');
    expect(refused.details?.balance).toEqual(eur(1000));
    const used = expectError(await slow.request('POST', `/orders/${issuing.id}/cancel`), 409, 'GIFT_CARD_ALREADY_USED');
    expect(used.details?.code).toBe(code);

    expectError(await paying, 502, 'PAYMENT_PROVIDER_UNAVAILABLE');
    const after = await giftCardOf(slow, code);
    expect([after.balance, after.transactions]).toEqual([eur(5000), []]);
    // the hold is gone with the failed attempt: the card was never used, so its order can be cancelled (the card voided)
    expect((await slow.request('POST', `/orders/${issuing.id}/cancel`)).status).toBe(200);
    expect((await giftCardOf(slow, code)).status).toBe('void');
  });
});

describe('concurrent spends of one card', () => {
  const race = async (code: string, carts: Cart[], payment: (i: number) => Parameters<typeof payWithGiftCards>[3]): Promise<ApiResponse[]> =>
    Promise.all(carts.map((cart, i) => payWithGiftCards(engine, cart.id, cart.total, payment(i))));
  const newCarts = async (n: number, quantity: number): Promise<Cart[]> => {
    const carts: Cart[] = [];
    for (let i = 0; i < n; i++) carts.push(await createCart(engine, [concert(quantity, 'standing-student', 'brass-2027-03-13')]));
    return carts;
  };
  const check = async (code: string, initial: number, answers: ApiResponse[]) => {
    let taken = 0;
    for (const answer of answers) {
      if (answer.status === 201) {
        taken += splitOrderOf(answer).payment.giftCards?.find((part) => part.code === code)?.amount.amount ?? 0;
      } else {
        expectError(answer, 402, 'GIFT_CARD_INSUFFICIENT_BALANCE');
      }
    }
    const view = await giftCardOf(engine, code);
    expect(taken).toBeLessThanOrEqual(initial);
    expect(view.balance.amount).toBe(initial - taken);
    expect(view.transactions).toHaveLength(answers.filter((answer) => answer.status === 201).length);
    return taken;
  };

  it('20 carts at once, each trying to take most of the card: one succeeds, the others 402, never below zero', async () => {
    const { code } = await sellGiftCard(engine, 'gift-100');
    const carts = await newCarts(20, 2); // 2 × 2900 = 5800 each
    const answers = await race(code, carts, (i) =>
      i % 2 === 0 ? { method: 'giftCard', giftCards: parts([code]) } : { method: 'card', token: 'tok_visa', giftCards: parts([code, 5500]) });
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(await check(code, 10000, answers)).toBeGreaterThanOrEqual(5500);
  });

  it('20 carts at once, each taking 2500 with the rest in cash: exactly four succeed, nothing is left', async () => {
    const { code } = await sellGiftCard(engine, 'gift-100');
    const carts: Cart[] = [];
    // a seat of 3200 each: 2500 from the card, 700 in cash
    for (let i = 0; i < 20; i++) carts.push(await createCart(engine, [seat(`B${i + 1}`, 'stalls-concession', 'tempest-2027-04-09')]));
    const answers = await race(code, carts, () => ({ method: 'cash', giftCards: parts([code, 2500]) }));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(4);
    expect(await check(code, 10000, answers)).toBe(10000);
    expect(await balanceOf(engine, code)).toBe(0);
  });
});
