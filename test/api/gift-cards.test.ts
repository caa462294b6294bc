import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { card, cash, checkout, eur, expectError, ISO_TIMESTAMP, newKey, orderOf, replayed } from '../helpers/orders';
import { readBalance, buyGiftCard, getGiftCard, ticketCart } from '../helpers/gift-cards';

/**
 * Gift cards as payment (issue #24, contract §13): the balance, a split with cash or card, a whole payment by cards,
 * replay. Runs on both databases (startTestEngine).
 */

describe('gift cards: balance and paying with them', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('a card bought with cash answers its balance, currency, status and no transactions', async () => {
    const { code } = await buyGiftCard(engine);
    const response = await getGiftCard(engine, code);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ code, currency: 'EUR', initial: eur(5000), balance: eur(5000), status: 'active', transactions: [] });
  });

  it('matches a code typed in lower case with spaces and hyphens', async () => {
    const { code } = await buyGiftCard(engine);
    const typed = `${code.slice(0, 4).toLowerCase()}-${code.slice(4, 10)} ${code.slice(10).toLowerCase()}`;
    const response = await getGiftCard(engine, typed);
    expect(response.status).toBe(200);
    expect(response.body.data.code).toBe(code);
  });

  it('an unknown code is 404 GIFT_CARD_NOT_FOUND', async () => {
    expectError(await getGiftCard(engine, 'NOSUCHCARD0000000000'), 404, 'GIFT_CARD_NOT_FOUND');
  });

  it('pays part of a ticket cart, cash the rest (tendered checked against the remainder); the order lists each part', async () => {
    const { code } = await buyGiftCard(engine);
    const cart = await ticketCart(engine, 2); // 7800
    // 2800 is left after the card: 2000 tendered is too little
    expectError(await checkout(engine, cart.id, cart.total, { method: 'cash', tendered: eur(2000), giftCards: [{ code }] }), 400, 'INVALID_FIELD_VALUE', 'payment.tendered.amount');
    expect(await readBalance(engine, code)).toBe(5000);
    const order = orderOf(await checkout(engine, cart.id, cart.total, { method: 'cash', tendered: eur(3000), giftCards: [{ code }] }));
    expect(order.total).toEqual(eur(7800));
    expect(order.payment).toMatchObject({ method: 'cash', status: 'captured', amount: eur(2800), tendered: eur(3000), change: eur(200), giftCards: [{ code, amount: eur(5000) }] });
    const card = (await getGiftCard(engine, code)).body.data;
    expect(card.balance).toEqual(eur(0));
    expect(card.transactions).toEqual([{ at: expect.stringMatching(ISO_TIMESTAMP) as string, orderId: order.id, amount: eur(-5000) }]);
  });

  it('pays part by card: the provider is charged the remainder only', async () => {
    const { code } = await buyGiftCard(engine, 'gift-25');
    const cart = await ticketCart(engine, 1); // 3900
    const order = orderOf(await checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: [{ code }] }));
    expect(order.payment).toMatchObject({ method: 'card', status: 'captured', amount: eur(1400), giftCards: [{ code, amount: eur(2500) }] });
    expect(await readBalance(engine, code)).toBe(0);
  });

  it('method giftCard pays the whole total with two cards; a card that would take nothing is left out', async () => {
    const first = await buyGiftCard(engine, 'gift-100');
    const second = await buyGiftCard(engine, 'gift-25');
    const cart = await ticketCart(engine, 1); // 3900
    const order = orderOf(await checkout(engine, cart.id, cart.total, { method: 'giftCard', giftCards: [{ code: first.code, amount: eur(2000) }, { code: second.code }] }));
    expect(order.payment).toMatchObject({ method: 'giftCard', status: 'captured', amount: eur(3900), giftCards: [{ code: first.code, amount: eur(2000) }, { code: second.code, amount: eur(1900) }] });
    expect(await readBalance(engine, first.code)).toBe(8000);
    expect(await readBalance(engine, second.code)).toBe(600);

    const covered = await ticketCart(engine, 1);
    const third = await buyGiftCard(engine, 'gift-25');
    const paid = orderOf(await checkout(engine, covered.id, covered.total, { method: 'card', token: 'tok_visa', giftCards: [{ code: first.code }, { code: third.code }] }));
    // the first card covers it all: nothing is charged, the order is paid by gift card, the second card untouched
    expect(paid.payment).toMatchObject({ method: 'giftCard', amount: eur(3900), giftCards: [{ code: first.code, amount: eur(3900) }] });
    expect(paid.payment.giftCards).toHaveLength(1);
    expect(await readBalance(engine, third.code)).toBe(2500);
  });

  it('a replay answers the stored order and redeems nothing twice', async () => {
    const { code } = await buyGiftCard(engine);
    const cart = await ticketCart(engine, 1);
    const key = newKey();
    const payment = { method: 'card' as const, token: 'tok_visa', giftCards: [{ code, amount: eur(1000) }] };
    const first = orderOf(await checkout(engine, cart.id, cart.total, payment, { idempotencyKey: key }));
    const again = await checkout(engine, cart.id, cart.total, payment, { idempotencyKey: key });
    expect(orderOf(again).id).toBe(first.id);
    expect(replayed(again)).toBe('true');
    expect(await readBalance(engine, code)).toBe(4000);
    expect((await getGiftCard(engine, code)).body.data.transactions).toHaveLength(1);
  });

  it('cash is still staff\'s; a card with gift cards works with the kiosk\'s orders:checkout', async () => {
    const kiosk = await engine.createKey(['carts:write', 'orders:checkout']);
    const { code } = await buyGiftCard(engine);
    const cart = (await engine.request<{ data: { id: string; total: { amount: number; currency: string } } }>('POST', '/carts', { key: kiosk, body: { items: [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 2 }] } })).body.data;
    expectError(await checkout(engine, cart.id, cart.total, cash(), { apiKey: kiosk }), 403, 'INSUFFICIENT_PERMISSIONS');
    const order = orderOf(await checkout(engine, cart.id, cart.total, { ...card(), giftCards: [{ code }] }, { apiKey: kiosk }));
    expect(order.payment).toMatchObject({ method: 'card', amount: eur(2800), giftCards: [{ code, amount: eur(5000) }] });
  });
});
