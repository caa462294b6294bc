import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { balanceOf, giftCardOf, parts, payWithGiftCards, sellGiftCard, splitOrderOf, type SplitOrder, partsOf } from '../helpers/gift-cards';
import { eur, expectError, newKey, orderOf, replayed } from '../helpers/orders';

/**
 * Paying with gift cards (contract §13, design of issue #24): the cards first, in the order given, the rest by
 * `method`; the order's payment lists each part; a kiosk key pays with cards alone or with a bank card; a replay
 * redeems nothing twice; a card's balance is read back after every sale.
 */

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

/** a fresh card of `value` and a fresh ticket cart of `quantity` standing places (3900 each) */
async function cardAndCart(value: 'gift-25' | 'gift-50' | 'gift-100', quantity: number) {
  const { code } = await sellGiftCard(engine, value);
  const cart = await createCart(engine, [concert(quantity, 'standing-adult', 'brass-2027-03-13')]);
  return { code, cart };
}

async function readOrder(id: string): Promise<SplitOrder> {
  const response = await engine.request<{ data: SplitOrder }>('GET', `/orders/${id}`);
  expect(response.status).toBe(200);
  return response.body.data;
}

describe('paying with gift cards', () => {
  it('method giftCard, one card covering the total: the whole total taken from the card, nothing charged', async () => {
    const { code, cart } = await cardAndCart('gift-50', 1);
    const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'giftCard', giftCards: parts([code]) }));
    expect(order.total).toEqual(eur(3900));
    expect(order.payment).toMatchObject({ method: 'giftCard', status: 'captured', amount: eur(3900), giftCards: [{ code, amount: eur(3900) }] });
    expect(order.payment.reference).toBeUndefined();
    expect(order.receiptLines).toEqual(cart.receiptLines);
    expect(order.tickets).toHaveLength(1);
    const view = await giftCardOf(engine, code);
    expect(view.balance).toEqual(eur(1100));
    expect(view.transactions.map((entry) => [entry.orderId, entry.amount])).toEqual([[order.id, eur(-3900)]]);
    // the payment is derived, the same when the order is read again
    expect((await readOrder(order.id)).payment).toEqual(order.payment);
  });

  it('two cards in the order given: the first gives all it has, the second the rest', async () => {
    const { code: first, cart } = await cardAndCart('gift-25', 2);
    const { code: second } = await sellGiftCard(engine, 'gift-100');
    const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'giftCard', giftCards: parts([first], [second]) }));
    expect(partsOf(order.payment)).toEqual([{ code: first, amount: eur(2500) }, { code: second, amount: eur(5300) }]);
    expect(order.payment.giftCards?.map((part) => part.balanceAfter)).toEqual([eur(0), eur(4700)]);
    expect(await balanceOf(engine, first)).toBe(0);
    expect(await balanceOf(engine, second)).toBe(4700);
  });

  it('a card that would take nothing (the total is already covered) is left out and keeps its balance', async () => {
    const { code: first, cart } = await cardAndCart('gift-50', 1);
    const { code: second } = await sellGiftCard(engine, 'gift-25');
    const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'giftCard', giftCards: parts([first], [second]) }));
    expect(partsOf(order.payment)).toEqual([{ code: first, amount: eur(3900) }]);
    expect(await balanceOf(engine, second)).toBe(2500);
    expect((await giftCardOf(engine, second)).transactions).toEqual([]);
  });

  it('a card and cash: the cash is checked against the rest, the change given of the rest', async () => {
    const { code, cart } = await cardAndCart('gift-25', 2); // 7800 − 2500 = 5300 in cash
    const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'cash', tendered: eur(6000), giftCards: parts([code]) }));
    expect(order.payment).toMatchObject({ method: 'cash', status: 'captured', amount: eur(5300), tendered: eur(6000), change: eur(700), giftCards: [{ code, amount: eur(2500) }] });
    expect(order.total).toEqual(eur(7800));
    expect(await balanceOf(engine, code)).toBe(0);
  });

  it('a card for an amount and the rest by bank card: the provider is charged the rest only', async () => {
    const { code, cart } = await cardAndCart('gift-100', 2);
    const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: parts([code, 1000]) }));
    expect(order.payment).toMatchObject({ method: 'card', status: 'captured', amount: eur(6800), giftCards: [{ code, amount: eur(1000) }] });
    expect(typeof order.payment.reference).toBe('string');
    expect(await balanceOf(engine, code)).toBe(9000);
  });

  it('the cards covering the whole total: nothing is charged whatever the method says (even a declining card)', async () => {
    const { code, cart } = await cardAndCart('gift-100', 1);
    const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'card', token: 'tok_declined', giftCards: parts([code]) }));
    expect(order.payment).toMatchObject({ method: 'giftCard', amount: eur(3900), giftCards: [{ code, amount: eur(3900) }] });
    const cashCart = await createCart(engine, [concert(1, 'standing-adult', 'brass-2027-03-13')]);
    const byCash = splitOrderOf(await payWithGiftCards(engine, cashCart.id, cashCart.total, { method: 'cash', giftCards: parts([code]) }));
    expect(byCash.payment).toMatchObject({ method: 'giftCard', amount: eur(3900), giftCards: [{ code, amount: eur(3900) }] });
    expect(await balanceOf(engine, code)).toBe(2200);
  });

  it('a code typed in lower case with hyphens pays from the same card', async () => {
    const { code, cart } = await cardAndCart('gift-50', 1);
    const typed = (code.match(/.{1,4}/g) ?? [code]).join('-').toLowerCase();
    splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'giftCard', giftCards: parts([typed]) }));
    expect(await balanceOf(engine, code)).toBe(1100);
  });

  it('a USD card pays a USD cart', async () => {
    const { code } = await sellGiftCard(engine, 'gift-100', 'USD'); // 10000 × 1.0825 = 10825 USD cents
    const cart = await createCart(engine, [concert(1, 'standing-adult', 'brass-2027-03-13')], 'USD'); // 4222
    const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'giftCard', giftCards: [{ code }] }));
    expect(partsOf(order.payment)).toEqual([{ code, amount: { amount: 4222, currency: 'USD' } }]);
    expect((await giftCardOf(engine, code)).balance).toEqual({ amount: 6603, currency: 'USD' });
  });

  it('a kiosk key (orders:checkout) pays with cards alone or with a bank card; cash stays with orders:write', async () => {
    const kiosk = await engine.createKey(['carts:write', 'orders:checkout'], { owner: 'kiosk' });
    const { code } = await sellGiftCard(engine, 'gift-100');
    const newCart = async () => (await engine.request<{ data: { id: string; total: { amount: number; currency: string } } }>('POST', '/carts', { key: kiosk, body: { items: [concert(1, 'standing-adult', 'brass-2027-03-13')] } })).body.data;
    expect((await giftCardOf(engine, code, kiosk)).balance).toEqual(eur(10000));
    const alone = await newCart();
    splitOrderOf(await payWithGiftCards(engine, alone.id, alone.total, { method: 'giftCard', giftCards: parts([code, 3900]) }, { apiKey: kiosk }));
    const split = await newCart();
    splitOrderOf(await payWithGiftCards(engine, split.id, split.total, { method: 'card', token: 'tok_visa', giftCards: parts([code, 1000]) }, { apiKey: kiosk }));
    const cash = await newCart();
    const refused = expectError(await payWithGiftCards(engine, cash.id, cash.total, { method: 'cash', giftCards: parts([code, 1000]) }, { apiKey: kiosk }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(refused.details?.requiredScope).toBe('orders:write');
    expect(await balanceOf(engine, code)).toBe(10000 - 3900 - 1000);
  });
});

describe('replay: the same key and cart answer the stored order and redeem nothing twice', () => {
  it('a gift-card checkout sent again', async () => {
    const { code, cart } = await cardAndCart('gift-100', 2);
    const key = newKey();
    const payment = { method: 'cash' as const, tendered: eur(5000), giftCards: parts([code, 3000]) };
    const first = await payWithGiftCards(engine, cart.id, cart.total, payment, { idempotencyKey: key });
    const order = splitOrderOf(first);
    const again = await payWithGiftCards(engine, cart.id, cart.total, payment, { idempotencyKey: key });
    expect(again.status).toBe(201);
    expect(replayed(again)).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await balanceOf(engine, code)).toBe(7000);
    // after the card was spent elsewhere, the replay still answers the stored order
    const other = await createCart(engine, [concert(1, 'standing-adult', 'brass-2027-03-13')]);
    splitOrderOf(await payWithGiftCards(engine, other.id, other.total, { method: 'giftCard', giftCards: parts([code]) }));
    const late = await payWithGiftCards(engine, cart.id, cart.total, payment, { idempotencyKey: key });
    expect([late.status, replayed(late), orderOf(late).id]).toEqual([201, 'true', order.id]);
    const view = await giftCardOf(engine, code);
    expect(view.balance).toEqual(eur(3100));
    expect(view.transactions.map((entry) => entry.amount.amount)).toEqual([-3000, -3900]);
  });

  it('the same key sent twice at once: one order, the card debited once', async () => {
    const { code, cart } = await cardAndCart('gift-100', 1);
    const key = newKey();
    const payment = { method: 'giftCard' as const, giftCards: parts([code]) };
    const answers = await Promise.all([0, 1, 2].map(() => payWithGiftCards(engine, cart.id, cart.total, payment, { idempotencyKey: key })));
    const made = answers.filter((answer) => answer.status === 201);
    expect(made.length, JSON.stringify(answers.map((answer) => answer.body))).toBeGreaterThanOrEqual(1);
    for (const answer of answers.filter((a) => a.status !== 201)) expectError(answer, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(new Set(made.map((answer) => orderOf(answer).id)).size).toBe(1);
    expect(await balanceOf(engine, code)).toBe(6100);
  });
});
