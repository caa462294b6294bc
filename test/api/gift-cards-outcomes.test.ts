import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { checkout, eur, expectError, newKey, orderOf, type Order } from '../helpers/orders';
import { readBalance, buyGiftCard, getGiftCard, ticketCart } from '../helpers/gift-cards';

/**
 * All or nothing (contract §13): the redemptions and the order are one outcome — whatever the remainder's charge
 * answers, no card loses balance unless the order exists; cancel puts each part back where it came from;
 * concurrent spends never take a card below zero.
 */

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

describe('all or nothing with the remainder\'s outcome', () => {
  const outcomes = [
    { token: 'tok_declined', status: 402, code: 'PAYMENT_DECLINED' },
    { token: 'tok_3ds', status: 402, code: 'PAYMENT_AUTHENTICATION_REQUIRED' },
    { token: 'tok_risk', status: 403, code: 'RISK_CHECK_FAILED' },
    { token: 'tok_provider_down', status: 502, code: 'PAYMENT_PROVIDER_UNAVAILABLE' },
  ];
  for (const { token, status, code } of outcomes) {
    it(`${token}: ${status} ${code}, and every card keeps its balance (no hold left)`, async () => {
      const first = await buyGiftCard(engine, 'gift-25');
      const second = await buyGiftCard(engine, 'gift-25');
      const cart = await ticketCart(engine, 3); // 11700: 6700 left for the card
      expectError(await checkout(engine, cart.id, cart.total, { method: 'card', token, giftCards: [{ code: first.code }, { code: second.code, amount: eur(2500) }] }), status, code);
      for (const card of [first, second]) {
        const read = (await getGiftCard(engine, card.code)).body.data;
        expect(read.balance).toEqual(eur(2500));
        expect(read.transactions).toEqual([]);
      }
      if (token === 'tok_risk') return; // the cart's checkout ended for every method (spec §7.3)
      // the cart is still held: the cards pay with a working card
      const order = orderOf(await checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: [{ code: first.code }, { code: second.code }] }));
      expect(order.payment).toMatchObject({ method: 'card', amount: eur(6700), giftCards: [{ code: first.code, amount: eur(2500) }, { code: second.code, amount: eur(2500) }] });
      expect(await readBalance(engine, first.code)).toBe(0);
    });
  }
});

describe('cancel puts each part back where it came from', () => {
  it('a split of gift card and card: the card part back on the card at once, the rest refunded through the provider; twice changes nothing', async () => {
    const { code } = await buyGiftCard(engine);
    const cart = await ticketCart(engine, 2); // 7800
    const order = orderOf(await checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: [{ code, amount: eur(3000) }] }));
    expect(await readBalance(engine, code)).toBe(2000);
    const cancelled = await engine.request<{ data: Order }>('POST', `/orders/${order.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(cancelled.body.data.payment).toMatchObject({ method: 'card', amount: eur(4800), giftCards: [{ code, amount: eur(3000) }] });
    expect(['refunding', 'refunded']).toContain(cancelled.body.data.payment.status);
    const card = (await getGiftCard(engine, code)).body.data;
    expect(card.balance).toEqual(eur(5000));
    expect(card.transactions.map((entry) => [entry.orderId, entry.amount.amount])).toEqual([[order.id, -3000], [order.id, 3000]]);
    expect((await engine.request('POST', `/orders/${order.id}/cancel`)).status).toBe(200);
    expect((await getGiftCard(engine, code)).body.data.transactions).toHaveLength(2);
  });

  it('a split of two gift cards and cash: both parts back, the cash part handed back (refunded at once)', async () => {
    const first = await buyGiftCard(engine, 'gift-25');
    const second = await buyGiftCard(engine, 'gift-25');
    const cart = await ticketCart(engine, 2); // 7800
    const order = orderOf(await checkout(engine, cart.id, cart.total, { method: 'cash', tendered: eur(3000), giftCards: [{ code: first.code }, { code: second.code }] }));
    expect(order.payment).toMatchObject({ method: 'cash', amount: eur(2800), change: eur(200) });
    const cancelled = (await engine.request<{ data: Order }>('POST', `/orders/${order.id}/cancel`)).body.data;
    expect(cancelled.payment).toMatchObject({ method: 'cash', status: 'refunded', amount: eur(2800) });
    expect(await readBalance(engine, first.code)).toBe(2500);
    expect(await readBalance(engine, second.code)).toBe(2500);
  });

  it('an order paid wholly by gift card: refunded at once, the card whole again', async () => {
    const { code } = await buyGiftCard(engine, 'gift-100');
    const cart = await ticketCart(engine, 1);
    const order = orderOf(await checkout(engine, cart.id, cart.total, { method: 'giftCard', giftCards: [{ code }] }));
    const cancelled = (await engine.request<{ data: Order }>('POST', `/orders/${order.id}/cancel`)).body.data;
    expect(cancelled.payment).toMatchObject({ method: 'giftCard', status: 'refunded', amount: eur(3900), giftCards: [{ code, amount: eur(3900) }] });
    expect(await readBalance(engine, code)).toBe(10_000);
  });

  it('cancelling the order that issued a card already spent in part: 409 GIFT_CARD_ALREADY_USED, nothing changes', async () => {
    const { code, order: issuing } = await buyGiftCard(engine);
    const cart = await ticketCart(engine, 1);
    orderOf(await checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: [{ code, amount: eur(1000) }] }));
    const refused = expectError(await engine.request('POST', `/orders/${issuing.id}/cancel`), 409, 'GIFT_CARD_ALREADY_USED');
    expect(refused.type).toBe('CONFLICT_ERROR');
    expect(refused.details).toEqual({ code });
    const still = (await engine.request<{ data: Order }>('GET', `/orders/${issuing.id}`)).body.data;
    expect(still.status).toBe('confirmed');
    expect(still.giftCards[0]?.status).toBe('active');
    expect(await readBalance(engine, code)).toBe(4000);
  });

  it('cancelling the order that issued an unused card voids it', async () => {
    const { code, order } = await buyGiftCard(engine);
    const cancelled = (await engine.request<{ data: Order }>('POST', `/orders/${order.id}/cancel`)).body.data;
    expect(cancelled.giftCards[0]?.status).toBe('void');
    expect((await getGiftCard(engine, code)).body.data).toMatchObject({ status: 'void', balance: eur(0) });
  });
});

describe('concurrent spends of one card', () => {
  it('many parallel checkouts taking 1000 each of a 5000 card: exactly five succeed, the rest 402, the card at 0', async () => {
    const { code } = await buyGiftCard(engine);
    const carts = await Promise.all(Array.from({ length: 12 }, () => ticketCart(engine, 1)));
    const answers = await Promise.all(carts.map((cart) => checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: [{ code, amount: eur(1000) }] })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    for (const answer of answers.filter((a) => a.status !== 201)) expectError(answer, 402, 'GIFT_CARD_INSUFFICIENT_BALANCE', 'payment.giftCards[0]');
    const card = (await getGiftCard(engine, code)).body.data;
    expect(card.balance).toEqual(eur(0));
    expect(card.transactions).toHaveLength(5);
  });

  it('parallel checkouts taking what the card has: the parts add up to its value, never more', async () => {
    const { code } = await buyGiftCard(engine);
    const carts = await Promise.all(Array.from({ length: 8 }, () => ticketCart(engine, 1)));
    const orders = await Promise.all(carts.map(async (cart) => orderOf(await checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: [{ code }] }, { idempotencyKey: newKey() }))));
    const taken = orders.flatMap((order) => order.payment.giftCards ?? []).reduce((sum, part) => sum + part.amount.amount, 0);
    expect(taken).toBe(5000);
    expect(await readBalance(engine, code)).toBe(0);
    for (const order of orders) {
      const part = order.payment.giftCards?.[0]?.amount.amount ?? 0;
      // the card paid it all (method giftCard, amount the total), or its part and the card the rest
      expect(order.payment.method === 'giftCard' ? part : order.payment.amount.amount + part).toBe(3900);
    }
  });
});
