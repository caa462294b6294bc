import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { balanceOf, giftCardOf, parts, payWithGiftCards, sellGiftCard, splitOrderOf, type GiftCardPart, type GiftPayment, type SplitOrder, partsOf } from '../helpers/gift-cards';
import { eur, expectError, ISO_TIMESTAMP } from '../helpers/orders';

/**
 * Cancelling (contract §13): an order paid partly by gift card puts each card's part back on its card, refunds
 * the bank-card part and hands the cash part back; an order that issued a gift card is refused 409
 * GIFT_CARD_ALREADY_USED once its card was spent, and an unused card is voided (paying with it: 410).
 */

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

const cancel = async (orderId: string): Promise<SplitOrder> => {
  const response = await engine.request<{ data: SplitOrder }>('POST', `/orders/${orderId}/cancel`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
};

/** a 7800 cart paid with 2500 of a fresh 5000 card (or two cards), the rest as `rest` says */
async function splitSale(rest: (giftCards: GiftCardPart[]) => GiftPayment, cards = 1) {
  const codes: string[] = [];
  for (let i = 0; i < cards; i++) codes.push((await sellGiftCard(engine, 'gift-50')).code);
  const cart = await createCart(engine, [concert(2)]);
  const giftCards = parts(...codes.map((code): [string, number] => [code, 2500 / cards]));
  const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, rest(giftCards)));
  return { codes, order };
}

describe('cancelling an order paid partly by gift card', () => {
  it('gift card + cash: the part goes back on the card as a transaction of that order, the cash part is handed back', async () => {
    const { codes: [code = ''], order } = await splitSale((giftCards) => ({ method: 'cash', tendered: eur(6000), giftCards }));
    expect(order.payment).toMatchObject({ method: 'cash', amount: eur(5300), change: eur(700), giftCards: [{ code, amount: eur(2500) }] });
    expect(await balanceOf(engine, code)).toBe(2500);
    const cancelled = await cancel(order.id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.payment).toMatchObject({ method: 'cash', status: 'refunded', amount: eur(5300), giftCards: [{ code, amount: eur(2500) }] });
    const view = await giftCardOf(engine, code);
    expect(view.balance).toEqual(eur(5000));
    expect(view.transactions).toEqual([
      { at: expect.stringMatching(ISO_TIMESTAMP), orderId: order.id, amount: eur(-2500) },
      { at: expect.stringMatching(ISO_TIMESTAMP), orderId: order.id, amount: eur(2500) },
    ]);
  });

  it('gift card + bank card: the part back on the card at once, the bank-card part refunded through the provider', async () => {
    const { codes: [code = ''], order } = await splitSale((giftCards) => ({ method: 'card', token: 'tok_visa', giftCards }));
    expect(order.payment).toMatchObject({ method: 'card', amount: eur(5300), giftCards: [{ code, amount: eur(2500) }] });
    const cancelled = await cancel(order.id);
    expect(['refunding', 'refunded']).toContain(cancelled.payment.status);
    expect(cancelled.payment).toMatchObject({ method: 'card', amount: eur(5300), giftCards: [{ code, amount: eur(2500) }] });
    expect(await balanceOf(engine, code)).toBe(5000);
  });

  it('two cards and the rest by bank card: each card gets its own part back', async () => {
    const { codes, order } = await splitSale((giftCards) => ({ method: 'card', token: 'tok_visa', giftCards }), 2);
    expect(partsOf(order.payment)).toEqual(codes.map((code) => ({ code, amount: eur(1250) })));
    await cancel(order.id);
    for (const code of codes) expect(await balanceOf(engine, code)).toBe(5000);
  });

  it('paid by gift cards alone: the whole total back on the card', async () => {
    const { code } = await sellGiftCard(engine, 'gift-100');
    const cart = await createCart(engine, [concert(2)]);
    const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'giftCard', giftCards: parts([code]) }));
    expect(await balanceOf(engine, code)).toBe(2200);
    const cancelled = await cancel(order.id);
    expect(cancelled.payment).toMatchObject({ method: 'giftCard', giftCards: [{ code, amount: eur(7800) }] });
    expect(await balanceOf(engine, code)).toBe(10000);
  });

  it('cancelling twice is a no-op: the part goes back once; the card spends it again', async () => {
    const { codes: [code = ''], order } = await splitSale((giftCards) => ({ method: 'cash', giftCards }));
    await cancel(order.id);
    await cancel(order.id);
    const view = await giftCardOf(engine, code);
    expect(view.balance).toEqual(eur(5000));
    expect(view.transactions).toHaveLength(2);
    const cart = await createCart(engine, [concert(1)]);
    splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'giftCard', giftCards: parts([code]) }));
    expect(await balanceOf(engine, code)).toBe(1100);
  });
});

describe('cancelling an order that issued a gift card', () => {
  it('its card spent in part: 409 GIFT_CARD_ALREADY_USED with the code, and nothing changes', async () => {
    const { code, order: issuing } = await sellGiftCard(engine, 'gift-50');
    const cart = await createCart(engine, [concert(1)]);
    splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: parts([code, 1000]) }));
    const refused = expectError(await engine.request('POST', `/orders/${issuing.id}/cancel`), 409, 'GIFT_CARD_ALREADY_USED');
    expect(refused.type).toBe('CONFLICT_ERROR');
    expect(refused.details?.code).toBe(code);
    const still = await engine.request<{ data: SplitOrder }>('GET', `/orders/${issuing.id}`);
    expect([still.body.data.status, still.body.data.payment.status, still.body.data.giftCards[0]?.status]).toEqual(['confirmed', 'captured', 'active']);
    const view = await giftCardOf(engine, code);
    expect([view.status, view.balance]).toEqual(['active', eur(4000)]);
  });

  it('its card spent in full: 409 GIFT_CARD_ALREADY_USED', async () => {
    const { code, order: issuing } = await sellGiftCard(engine, 'gift-25');
    const cart = await createCart(engine, [concert(1)]);
    splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'cash', giftCards: parts([code]) }));
    expectError(await engine.request('POST', `/orders/${issuing.id}/cancel`), 409, 'GIFT_CARD_ALREADY_USED');
    expect(await balanceOf(engine, code)).toBe(0);
  });

  it('its card spent and the spending order cancelled again: still used (it has a redemption), 409', async () => {
    const { code, order: issuing } = await sellGiftCard(engine, 'gift-50');
    const cart = await createCart(engine, [concert(1)]);
    const spent = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'giftCard', giftCards: parts([code]) }));
    await cancel(spent.id);
    expect(await balanceOf(engine, code)).toBe(5000);
    expectError(await engine.request('POST', `/orders/${issuing.id}/cancel`), 409, 'GIFT_CARD_ALREADY_USED');
    expect((await giftCardOf(engine, code)).status).toBe('active');
  });

  it('its card unused: cancelled and the card voided; GET shows it void with balance 0; paying with it 410 GIFT_CARD_VOID', async () => {
    const { code, order: issuing } = await sellGiftCard(engine, 'gift-50');
    const cancelled = await cancel(issuing.id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.giftCards[0]?.status).toBe('void');
    const view = await giftCardOf(engine, code);
    expect(view).toMatchObject({ code, status: 'void', initial: eur(5000), balance: eur(0) });
    expect(view.transactions).toEqual([{ at: expect.stringMatching(ISO_TIMESTAMP), orderId: issuing.id, amount: eur(-5000) }]);
    const cart = await createCart(engine, [concert(1)]);
    for (const payment of [{ method: 'giftCard', giftCards: parts([code]) }, { method: 'card', token: 'tok_visa', giftCards: parts([code, 100]) }] as const) {
      const gone = expectError(await payWithGiftCards(engine, cart.id, cart.total, payment), 410, 'GIFT_CARD_VOID');
      expect(gone.type).toBe('RESOURCE_GONE_ERROR');
    }
    // cancelling again is a no-op
    expect((await cancel(issuing.id)).status).toBe('cancelled');
    expect((await giftCardOf(engine, code)).transactions).toHaveLength(1);
  });
});
