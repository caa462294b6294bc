import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart, giftCard } from '../helpers/cart-assertions';
import { onPostgres, sqliteOnly, startTestEngine, type ApiResponse, type TestEngine } from '../helpers/engine';
import { getGiftCard, giftCardOf, parts, payWithGiftCards, sellGiftCard, splitOrderOf, unknownCode, partsOf } from '../helpers/gift-cards';
import { eur, expectError, ISO_TIMESTAMP, newKey, sleep, TICKET_CODE } from '../helpers/orders';

/**
 * Contract §13 and the shared design of issue #24: the balance resource, the throttle on unknown codes, and
 * every refusal of a gift-card payment (the §13 table and the design's decisions), each in the error envelope,
 * each leaving the card's balance and the idempotency key as they were.
 */

let engine: TestEngine;
/** the throttle's engine: its key is throttled first and checked last, after its minute has passed */
let throttled: TestEngine;
const limited = { codes: new Array<string>(), key: '', retryAfter: 0, at: 0, idempotencyKey: '', cart: { id: '', total: eur(0) } };

beforeAll(async () => {
  [engine, throttled] = await Promise.all([startTestEngine(), startTestEngine()]);
});
afterAll(async () => {
  await Promise.all([engine.close(), throttled.close()]);
});

describe('GET /gift-cards/{code}', () => {
  let code = '';
  let issuedBy = '';
  beforeAll(async () => {
    const sold = await sellGiftCard(engine, 'gift-50');
    ({ code } = sold);
    issuedBy = sold.order.id;
  });

  it('answers a fresh card: its code, currency, initial value, the whole balance, active, no transactions', async () => {
    const response = await getGiftCard(engine, code);
    expect(response.status).toBe(200);
    expect((response.body as { data: unknown }).data).toEqual({ code, currency: 'EUR', initial: eur(5000), balance: eur(5000), status: 'active', transactions: [] });
    expect(code).toMatch(TICKET_CODE);
    expect(issuedBy).toMatch(/^ord_/);
  });

  it('matches the code case-insensitively, with spaces and hyphens ignored (typed or scanned)', async () => {
    const grouped = code.match(/.{1,4}/g)?.join('-') ?? code;
    for (const typed of [code.toLowerCase(), grouped, grouped.replaceAll('-', ' '), ` ${grouped.toLowerCase()} `]) {
      expect((await giftCardOf(engine, typed)).code, typed).toBe(code);
    }
  });

  it('answers 404 GIFT_CARD_NOT_FOUND (NOT_FOUND_ERROR) for an unknown code', async () => {
    expectError(await getGiftCard(engine, unknownCode(0)), 404, 'GIFT_CARD_NOT_FOUND');
  });

  it('lists a redemption as a negative transaction with its order and time, oldest first', async () => {
    const cart = await createCart(engine, [concert(1)]);
    const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: parts([code, 1000]) }));
    const view = await giftCardOf(engine, code);
    expect(view.balance).toEqual(eur(4000));
    expect(view.transactions).toEqual([{ at: expect.stringMatching(ISO_TIMESTAMP), orderId: order.id, amount: eur(-1000) }]);
  });

  it('answers its errors in English, German and French; the code stays the same', async () => {
    const reader = await engine.createKey(['orders:read']);
    const messages = new Set<string>();
    for (const language of ['en', 'de', 'fr']) {
      const response = await engine.request('GET', `/gift-cards/${unknownCode(20)}`, { key: reader, headers: { 'accept-language': language } });
      messages.add(expectError(response, 404, 'GIFT_CARD_NOT_FOUND').message);
    }
    expect(messages.size).toBe(3);
  });

  it('needs carts:write or orders:read: either key reads it, a catalog:read key gets 403, no key 401', async () => {
    expect((await giftCardOf(engine, code, engine.keys.carts)).code).toBe(code);
    expect((await giftCardOf(engine, code, engine.keys.ordersRead)).code).toBe(code);
    const refused = expectError(await getGiftCard(engine, code, engine.keys.catalogRead), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(['carts:write', 'orders:read']).toContain(refused.details?.requiredScope);
    expectError(await engine.request('GET', `/gift-cards/${code}`, { key: null }), 401, 'INVALID_API_KEY');
  });
});

describe('the throttle on unknown codes: per API key, 10 a minute', () => {
  let code = '';
  let other = '';
  let cartId = '';
  const expect429 = (response: ApiResponse): number => {
    expectError(response, 429, 'RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter), `Retry-After: ${response.headers.get('retry-after')}`).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    return retryAfter;
  };
  beforeAll(async () => {
    ({ code } = await sellGiftCard(throttled, 'gift-100'));
    limited.codes.push(code);
    limited.key = await throttled.createKey(['carts:write', 'orders:write', 'orders:read'], { owner: 'throttled' });
    other = await throttled.createKey(['carts:write', 'orders:write', 'orders:read'], { owner: 'throttled' });
    const cart = await throttled.request<{ data: { id: string } }>('POST', '/carts', { key: other, body: { items: [concert(1)] } });
    cartId = cart.body.data.id;
  });

  it('ten unknown codes answer 404; the eleventh lookup answers 429 RATE_LIMIT_EXCEEDED with Retry-After', async () => {
    for (let i = 0; i < 10; i++) expectError(await getGiftCard(throttled, unknownCode(i), limited.key), 404, 'GIFT_CARD_NOT_FOUND');
    limited.retryAfter = expect429(await getGiftCard(throttled, unknownCode(10), limited.key));
    limited.at = Date.now();
  });

  it('a known code is refused too for that key, on GET and on a checkout that carries gift cards', async () => {
    expect429(await getGiftCard(throttled, code, limited.key));
    const cart = await throttled.request<{ data: { id: string; total: { amount: number; currency: string } } }>('POST', '/carts', { key: limited.key, body: { items: [concert(1)] } });
    expect(cart.status).toBe(201);
    const paying = await payWithGiftCards(throttled, cart.body.data.id, cart.body.data.total, { method: 'giftCard', giftCards: parts([code]) }, { apiKey: limited.key });
    limited.retryAfter = expect429(paying);
    limited.at = Date.now();
    // a second cart refused with its own idempotency key: the key stays unused (paid with it a minute later)
    const waiting = await throttled.request<{ data: { id: string; total: { amount: number; currency: string } } }>('POST', '/carts', { key: limited.key, body: { items: [concert(1)] } });
    limited.cart = waiting.body.data;
    limited.idempotencyKey = newKey();
    expect429(await payWithGiftCards(throttled, limited.cart.id, limited.cart.total, { method: 'giftCard', giftCards: parts([code]) }, { apiKey: limited.key, idempotencyKey: limited.idempotencyKey }));
    limited.at = Date.now();
    // a checkout without gift cards is not what the throttle guards
    const byCard = await payWithGiftCards(throttled, cart.body.data.id, cart.body.data.total, { method: 'card', token: 'tok_visa' }, { apiKey: limited.key });
    expect(byCard.status, JSON.stringify(byCard.body)).toBe(201);
    expect((await giftCardOf(throttled, code, other)).balance).toEqual(eur(10000));
  });

  it('another key is not affected: it reads the card and pays with it', async () => {
    expect((await giftCardOf(throttled, code, other)).balance).toEqual(eur(10000));
    expectError(await getGiftCard(throttled, unknownCode(11), other), 404, 'GIFT_CARD_NOT_FOUND');
    const paid = splitOrderOf(await payWithGiftCards(throttled, cartId, eur(3900), { method: 'giftCard', giftCards: parts([code]) }, { apiKey: other }));
    expect(partsOf(paid.payment)).toEqual([{ code, amount: eur(3900) }]);
  });

  it('unknown codes in a checkout count too: ten refused 404, then the key answers 429', async () => {
    const guesser = await throttled.createKey(['carts:write', 'orders:write'], { owner: 'throttled' });
    const cart = await throttled.request<{ data: { id: string } }>('POST', '/carts', { key: guesser, body: { items: [concert(1)] } });
    for (let i = 0; i < 10; i++) {
      const refused = await payWithGiftCards(throttled, cart.body.data.id, eur(3900), { method: 'giftCard', giftCards: parts([unknownCode(100 + i)]) }, { apiKey: guesser });
      expectError(refused, 404, 'GIFT_CARD_NOT_FOUND');
    }
    expect429(await getGiftCard(throttled, code, guesser));
    expect429(await payWithGiftCards(throttled, cart.body.data.id, eur(3900), { method: 'giftCard', giftCards: parts([code]) }, { apiKey: guesser }));
  });
});

describe('§13: the refusals of a gift-card payment, each leaving the card and the idempotency key untouched', () => {
  let small = ''; // 2500
  let large = ''; // 10000
  let dollars = ''; // a USD card
  let voided = '';
  let cartId = '';
  const total = eur(7800);
  const refuse = async (payment: Parameters<typeof payWithGiftCards>[3], status: number, code: string, param?: string) => {
    const key = newKey();
    const error = expectError(await payWithGiftCards(engine, cartId, total, payment, { idempotencyKey: key }), status, code, param);
    expect((await giftCardOf(engine, small)).balance).toEqual(eur(2500));
    expect((await giftCardOf(engine, large)).balance).toEqual(eur(10000));
    return { error, key };
  };
  beforeAll(async () => {
    ({ code: small } = await sellGiftCard(engine, 'gift-25'));
    ({ code: large } = await sellGiftCard(engine, 'gift-100'));
    ({ code: dollars } = await sellGiftCard(engine, 'gift-50', 'USD'));
    const unused = await sellGiftCard(engine, 'gift-25');
    voided = unused.code;
    expect((await engine.request('POST', `/orders/${unused.order.id}/cancel`)).status).toBe(200);
    cartId = (await createCart(engine, [concert(2)])).id;
  });

  it('method giftCard and the cards do not cover the total: 402 GIFT_CARD_INSUFFICIENT_BALANCE with details.remaining', async () => {
    const { error } = await refuse({ method: 'giftCard', giftCards: parts([small]) }, 402, 'GIFT_CARD_INSUFFICIENT_BALANCE');
    expect(error.type).toBe('PAYMENT_ERROR');
    expect(error.details?.remaining).toEqual(eur(5300));
  });

  it('an amount above the card balance: 402 GIFT_CARD_INSUFFICIENT_BALANCE, param names the card, details.balance', async () => {
    const first = await refuse({ method: 'card', token: 'tok_visa', giftCards: parts([small, 2600]) }, 402, 'GIFT_CARD_INSUFFICIENT_BALANCE', 'payment.giftCards[0]');
    expect(first.error.details?.balance).toEqual(eur(2500));
    const second = await refuse({ method: 'cash', giftCards: parts([large, 1000], [small, 2501]) }, 402, 'GIFT_CARD_INSUFFICIENT_BALANCE', 'payment.giftCards[1]');
    expect(second.error.details?.balance).toEqual(eur(2500));
  });

  it('a card of another currency than the cart: 400 GIFT_CARD_CURRENCY_MISMATCH with details.currency', async () => {
    expect((await giftCardOf(engine, dollars)).currency).toBe('USD');
    const { error } = await refuse({ method: 'card', token: 'tok_visa', giftCards: parts([dollars]) }, 400, 'GIFT_CARD_CURRENCY_MISMATCH');
    expect(error.details?.currency).toBe('USD');
    // an amount in another currency than the cart's
    await refuse({ method: 'card', token: 'tok_visa', giftCards: [{ code: large, amount: { amount: 1000, currency: 'USD' } }] }, 400, 'GIFT_CARD_CURRENCY_MISMATCH');
  });

  it('a gift card paying for a gift-card cart: 400 GIFT_CARD_NOT_ACCEPTED', async () => {
    const giftCart = await createCart(engine, [giftCard('gift-25')]);
    const response = await payWithGiftCards(engine, giftCart.id, giftCart.total, { method: 'giftCard', giftCards: parts([large]) });
    expectError(response, 400, 'GIFT_CARD_NOT_ACCEPTED');
    expect((await giftCardOf(engine, large)).balance).toEqual(eur(10000));
    const split = await payWithGiftCards(engine, giftCart.id, giftCart.total, { method: 'card', token: 'tok_visa', giftCards: parts([large, 500]) });
    expectError(split, 400, 'GIFT_CARD_NOT_ACCEPTED');
  });

  it('an unknown card: 404 GIFT_CARD_NOT_FOUND; a void card: 410 GIFT_CARD_VOID (RESOURCE_GONE_ERROR)', async () => {
    const unknown = await refuse({ method: 'card', token: 'tok_visa', giftCards: parts([large, 1000], [unknownCode(50)]) }, 404, 'GIFT_CARD_NOT_FOUND');
    expect(unknown.error.param ?? 'payment.giftCards[1]').toMatch(/^payment\.giftCards\[1\]/);
    const gone = await refuse({ method: 'card', token: 'tok_visa', giftCards: parts([voided]) }, 410, 'GIFT_CARD_VOID');
    expect(gone.error.type).toBe('RESOURCE_GONE_ERROR');
    const view = await giftCardOf(engine, voided);
    expect([view.status, view.balance]).toEqual(['void', eur(0)]);
  });

  it('the same code twice (also as typed differently): 400 INVALID_FIELD_VALUE on the second, reason duplicate', async () => {
    const twice = await refuse({ method: 'card', token: 'tok_visa', giftCards: parts([large, 1000], [large, 1000]) }, 400, 'INVALID_FIELD_VALUE', 'payment.giftCards[1].code');
    expect(twice.error.details?.reason).toBe('duplicate');
    const typed = await refuse({ method: 'card', token: 'tok_visa', giftCards: parts([large, 1000], [large.toLowerCase(), 1000]) }, 400, 'INVALID_FIELD_VALUE', 'payment.giftCards[1].code');
    expect(typed.error.details?.reason).toBe('duplicate');
  });

  it('an amount of zero or less: 400 INVALID_FIELD_VALUE, reason not_positive', async () => {
    for (const amount of [0, -100]) {
      const { error } = await refuse({ method: 'card', token: 'tok_visa', giftCards: parts([large, amount]) }, 400, 'INVALID_FIELD_VALUE');
      expect(error.details?.reason, JSON.stringify(error)).toBe('not_positive');
    }
  });

  it('explicit amounts adding up to more than the total: 400 INVALID_FIELD_VALUE on the amount, reason more_than_total', async () => {
    const { error } = await refuse({ method: 'giftCard', giftCards: parts([small, 2000], [large, 5801]) }, 400, 'INVALID_FIELD_VALUE', 'payment.giftCards[1].amount');
    expect(error.details?.reason).toBe('more_than_total');
  });

  it('method giftCard without gift cards: 400 MISSING_REQUIRED_FIELD payment.giftCards; with a token or tendered: 400 INVALID_FIELD_VALUE', async () => {
    await refuse({ method: 'giftCard' }, 400, 'MISSING_REQUIRED_FIELD', 'payment.giftCards');
    await refuse({ method: 'giftCard', token: 'tok_visa', giftCards: parts([large]) }, 400, 'INVALID_FIELD_VALUE');
    await refuse({ method: 'giftCard', tendered: eur(7800), giftCards: parts([large]) }, 400, 'INVALID_FIELD_VALUE');
  });

  it('no cards, or more than ten: 400 INVALID_REQUEST_ERROR, nothing taken', async () => {
    const none = await payWithGiftCards(engine, cartId, total, { method: 'card', token: 'tok_visa', giftCards: [] });
    expect([none.status, (none.body as { error?: { type: string } }).error?.type], JSON.stringify(none.body)).toEqual([400, 'INVALID_REQUEST_ERROR']);
    const eleven: string[] = [];
    for (let i = 0; i < 11; i++) eleven.push((await sellGiftCard(engine, 'gift-25')).code);
    const many = await payWithGiftCards(engine, cartId, total, { method: 'card', token: 'tok_visa', giftCards: parts(...eleven.map((code): [string, number] => [code, 100])) });
    expect([many.status, (many.body as { error?: { type: string } }).error?.type], JSON.stringify(many.body)).toEqual([400, 'INVALID_REQUEST_ERROR']);
    for (const code of eleven) expect((await giftCardOf(engine, code)).balance).toEqual(eur(2500));
  });

  it('the cash remainder is checked against the remainder: below it or above the most that may be tendered, 400', async () => {
    // 7800 − 2500 = 5300 left to pay in cash
    await refuse({ method: 'cash', tendered: eur(5299), giftCards: parts([small]) }, 400, 'INVALID_FIELD_VALUE');
    // the most that may be tendered for 5300 is far below 60 000 (for the whole 7800 it would not be)
    await refuse({ method: 'cash', tendered: eur(60_000), giftCards: parts([small]) }, 400, 'INVALID_FIELD_VALUE');
  });

  it('every refusal above left the key unused: the same key then pays, and the card loses its part once', async () => {
    const { key } = await refuse({ method: 'giftCard', giftCards: parts([small]) }, 402, 'GIFT_CARD_INSUFFICIENT_BALANCE');
    const paid = splitOrderOf(await payWithGiftCards(engine, cartId, total, { method: 'cash', tendered: eur(5300), giftCards: parts([small]) }, { idempotencyKey: key }));
    expect(paid.payment).toMatchObject({ method: 'cash', amount: eur(5300), giftCards: [{ code: small, amount: eur(2500) }] });
    expect((await giftCardOf(engine, small)).balance).toEqual(eur(0));
  });
});

// The minute's wait is the same on both databases (the throttle is in memory, per process): it is waited once.
describe.skipIf(onPostgres)(sqliteOnly('the throttle, a minute later', 'the throttle is in memory; its real-time minute is waited on SQLite only'), () => {
  it('after Retry-After the throttled key is served again', { timeout: 75_000 }, async () => {
    expect(limited.at).toBeGreaterThan(0);
    const wait = limited.at + limited.retryAfter * 1000 + 250 - Date.now();
    if (wait > 0) await sleep(wait);
    expect((await giftCardOf(throttled, limited.codes[0] ?? '', limited.key)).status).toBe('active');
    // the checkout refused 429 left its idempotency key unused
    const paid = splitOrderOf(await payWithGiftCards(throttled, limited.cart.id, limited.cart.total, { method: 'giftCard', giftCards: parts([limited.codes[0] ?? '']) }, { apiKey: limited.key, idempotencyKey: limited.idempotencyKey }));
    expect(partsOf(paid.payment)).toEqual([{ code: limited.codes[0], amount: eur(3900) }]);
    expectError(await getGiftCard(throttled, unknownCode(300), limited.key), 404, 'GIFT_CARD_NOT_FOUND');
  });
});
