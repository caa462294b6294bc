import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart, giftCard, type Money } from '../helpers/cart-assertions';
import { startTestEngine, type ApiResponse, type TestEngine } from '../helpers/engine';
import { balanceOf, getGiftCard, giftCardOf, parts, sellGiftCard, unknownCode, type GiftCardPart } from '../helpers/gift-cards';
import { eur, expectError } from '../helpers/orders';

/**
 * POST /carts/{cartId}/gift-card-quote (design of issue #24, so that the UI computes nothing): what a checkout with
 * these cards would take from each card and what is left to pay — with the checkout's errors, nothing held or
 * written, and unknown codes counted by the throttle.
 */

interface Quote { parts: { code: string; amount: Money; balance: Money; balanceAfter: Money }[]; remaining: Money }

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

const quote = (cartId: string, giftCards: GiftCardPart[], key?: string): Promise<ApiResponse> =>
  engine.request('POST', `/carts/${cartId}/gift-card-quote`, { body: { giftCards }, ...(key !== undefined && { key }) });
const quoteOf = (response: ApiResponse): Quote => {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { data: Quote }).data;
};

describe('POST /carts/{cartId}/gift-card-quote', () => {
  let small = '';
  let large = '';
  let cartId = '';
  beforeAll(async () => {
    ({ code: small } = await sellGiftCard(engine, 'gift-25'));
    ({ code: large } = await sellGiftCard(engine, 'gift-100'));
    cartId = (await createCart(engine, [concert(2)])).id; // 7800
  });

  it('quotes each card part in order, its balance and balance after, and what is left to pay; holds nothing', async () => {
    expect(quoteOf(await quote(cartId, parts([small])))).toEqual({
      parts: [{ code: small, amount: eur(2500), balance: eur(2500), balanceAfter: eur(0) }],
      remaining: eur(5300),
    });
    expect(quoteOf(await quote(cartId, parts([small], [large])))).toEqual({
      parts: [
        { code: small, amount: eur(2500), balance: eur(2500), balanceAfter: eur(0) },
        { code: large, amount: eur(5300), balance: eur(10000), balanceAfter: eur(4700) },
      ],
      remaining: eur(0),
    });
    expect(quoteOf(await quote(cartId, parts([large, 1000])))).toMatchObject({ parts: [{ code: large, amount: eur(1000), balanceAfter: eur(9000) }], remaining: eur(6800) });
    expect([await balanceOf(engine, small), await balanceOf(engine, large)]).toEqual([2500, 10000]);
    expect((await giftCardOf(engine, large)).transactions).toEqual([]);
  });

  it('a kiosk key (carts:write) may ask; a key without carts:write may not', async () => {
    const kiosk = await engine.createKey(['carts:write', 'orders:checkout']);
    const cart = await engine.request<{ data: { id: string } }>('POST', '/carts', { key: kiosk, body: { items: [concert(1)] } });
    expect(quoteOf(await quote(cart.body.data.id, parts([small]), kiosk)).remaining).toEqual(eur(1400));
    expect((await quote(cartId, parts([small]), engine.keys.ordersRead)).status).toBe(403);
  });

  it('answers the checkout errors: amount above balance 402, another currency 400, a gift-card cart 400, unknown 404, void 410, duplicate 400', async () => {
    // `param` names the field of this request's body
    const over = expectError(await quote(cartId, parts([small, 2600])), 402, 'GIFT_CARD_INSUFFICIENT_BALANCE', 'giftCards[0]');
    expect(over.details?.balance).toEqual(eur(2500));
    const { code: dollars } = await sellGiftCard(engine, 'gift-25', 'USD');
    expectError(await quote(cartId, parts([dollars])), 400, 'GIFT_CARD_CURRENCY_MISMATCH');
    const giftCart = await createCart(engine, [giftCard('gift-25')]);
    expectError(await quote(giftCart.id, parts([large])), 400, 'GIFT_CARD_NOT_ACCEPTED');
    expectError(await quote(cartId, parts([unknownCode(1)])), 404, 'GIFT_CARD_NOT_FOUND');
    const unused = await sellGiftCard(engine, 'gift-25');
    expect((await engine.request('POST', `/orders/${unused.order.id}/cancel`)).status).toBe(200);
    expectError(await quote(cartId, parts([unused.code])), 410, 'GIFT_CARD_VOID');
    expectError(await quote(cartId, parts([large, 100], [large, 100])), 400, 'INVALID_FIELD_VALUE');
    expectError(await engine.request('POST', '/carts/cart_nope/gift-card-quote', { body: { giftCards: parts([large]) } }), 404, 'RESOURCE_NOT_FOUND');
  });

  it('unknown codes quoted count against the key: after ten, 429 on the quote and on GET', async () => {
    const guesser = await engine.createKey(['carts:write']);
    const cart = await engine.request<{ data: { id: string } }>('POST', '/carts', { key: guesser, body: { items: [concert(1)] } });
    for (let i = 0; i < 10; i++) expectError(await quote(cart.body.data.id, parts([unknownCode(10 + i)]), guesser), 404, 'GIFT_CARD_NOT_FOUND');
    expectError(await quote(cart.body.data.id, parts([large]), guesser), 429, 'RATE_LIMIT_EXCEEDED');
    expectError(await getGiftCard(engine, large, guesser), 429, 'RATE_LIMIT_EXCEEDED');
  });
});
