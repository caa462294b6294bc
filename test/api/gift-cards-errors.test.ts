import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCart, giftCard } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { checkout, eur, expectError, newKey, orderOf, type PaymentRequest } from '../helpers/orders';
import { readBalance, buyGiftCard, getGiftCard, ticketCart } from '../helpers/gift-cards';

/**
 * Every row of contract §13's table and the refusals the shared design decides: each found in the
 * checkout's first transaction, so the idempotency key stays unused and no card loses balance.
 */

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

/** the refusal, then the same key succeeds with a valid payment: the refusal left it unused */
async function refusedThenUsable(payment: PaymentRequest, status: number, code: string, param?: string) {
  const cart = await ticketCart(engine, 1); // 3900
  const key = newKey();
  const error = expectError(await checkout(engine, cart.id, cart.total, payment, { idempotencyKey: key }), status, code, param);
  orderOf(await checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa' }, { idempotencyKey: key }));
  return error;
}

describe('contract §13: the table', () => {
  it('method giftCard whose cards do not cover the total: 402 GIFT_CARD_INSUFFICIENT_BALANCE with details.remaining', async () => {
    const { code } = await buyGiftCard(engine, 'gift-25');
    const error = await refusedThenUsable({ method: 'giftCard', giftCards: [{ code }] }, 402, 'GIFT_CARD_INSUFFICIENT_BALANCE', 'payment.giftCards');
    expect(error.type).toBe('PAYMENT_ERROR');
    expect(error.details).toEqual({ remaining: eur(1400) });
    expect(await readBalance(engine, code)).toBe(2500);
  });

  it('an amount above the card\'s balance: 402 with details.balance and param naming the card', async () => {
    const { code } = await buyGiftCard(engine, 'gift-25');
    const other = await buyGiftCard(engine, 'gift-25');
    const error = await refusedThenUsable({ method: 'card', token: 'tok_visa', giftCards: [{ code: other.code, amount: eur(100) }, { code, amount: eur(2600) }] }, 402, 'GIFT_CARD_INSUFFICIENT_BALANCE', 'payment.giftCards[1]');
    expect(error.details).toEqual({ balance: eur(2500) });
    expect(await readBalance(engine, code)).toBe(2500);
    expect(await readBalance(engine, other.code)).toBe(2500);
  });

  it('a card of another currency than the cart: 400 GIFT_CARD_CURRENCY_MISMATCH with details.currency', async () => {
    const { code } = await buyGiftCard(engine);
    const cart = await createCart(engine, [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 }], 'USD');
    const error = expectError(await checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: [{ code }] }), 400, 'GIFT_CARD_CURRENCY_MISMATCH', 'payment.giftCards[0].code');
    expect(error.details).toEqual({ currency: 'EUR' });
  });

  it('a gift card paying for a gift-card cart: 400 GIFT_CARD_NOT_ACCEPTED', async () => {
    const { code } = await buyGiftCard(engine);
    const cart = await createCart(engine, [giftCard('gift-25')]);
    expectError(await checkout(engine, cart.id, cart.total, { method: 'giftCard', giftCards: [{ code }] }), 400, 'GIFT_CARD_NOT_ACCEPTED', 'payment.giftCards');
    expect(await readBalance(engine, code)).toBe(5000);
  });

  it('an unknown card: 404 GIFT_CARD_NOT_FOUND (NOT_FOUND_ERROR), the key unused', async () => {
    const error = await refusedThenUsable({ method: 'card', token: 'tok_visa', giftCards: [{ code: 'UNKNOWNCARD000000000' }] }, 404, 'GIFT_CARD_NOT_FOUND', 'payment.giftCards[0].code');
    expect(error.type).toBe('NOT_FOUND_ERROR');
  });

  it('a void card: 410 GIFT_CARD_VOID; GET answers it void with balance 0 and the void in its transactions', async () => {
    const { code, order } = await buyGiftCard(engine);
    const cancelled = await engine.request<{ data: { status: string; giftCards: { status: string }[] } }>('POST', `/orders/${order.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.giftCards[0]?.status).toBe('void');
    const error = await refusedThenUsable({ method: 'card', token: 'tok_visa', giftCards: [{ code }] }, 410, 'GIFT_CARD_VOID', 'payment.giftCards[0].code');
    expect(error.type).toBe('RESOURCE_GONE_ERROR');
    const read = await getGiftCard(engine, code);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ status: 'void', balance: eur(0), initial: eur(5000), transactions: [{ orderId: order.id, amount: eur(-5000) }] });
  });
});

describe('the design\'s refusals', () => {
  it('the same code twice: 400 INVALID_FIELD_VALUE reason duplicate, whatever its case or hyphens', async () => {
    const { code } = await buyGiftCard(engine);
    const error = await refusedThenUsable({ method: 'card', token: 'tok_visa', giftCards: [{ code }, { code: `${code.slice(0, 5)}-${code.slice(5).toLowerCase()}` }] }, 400, 'INVALID_FIELD_VALUE', 'payment.giftCards[1].code');
    expect(error.details).toMatchObject({ reason: 'duplicate' });
  });

  it('an amount of 0 or less: 400 not_positive; in another currency: 400 GIFT_CARD_CURRENCY_MISMATCH; more than the total: 400 more_than_total', async () => {
    const { code } = await buyGiftCard(engine, 'gift-100');
    const zero = await refusedThenUsable({ method: 'card', token: 'tok_visa', giftCards: [{ code, amount: eur(0) }] }, 400, 'INVALID_FIELD_VALUE', 'payment.giftCards[0].amount');
    expect(zero.details).toMatchObject({ reason: 'not_positive' });
    await refusedThenUsable({ method: 'card', token: 'tok_visa', giftCards: [{ code, amount: { amount: 100, currency: 'USD' } }] }, 400, 'GIFT_CARD_CURRENCY_MISMATCH', 'payment.giftCards[0].amount');
    const other = await buyGiftCard(engine);
    const more = await refusedThenUsable({ method: 'card', token: 'tok_visa', giftCards: [{ code, amount: eur(2000) }, { code: other.code, amount: eur(2000) }] }, 400, 'INVALID_FIELD_VALUE', 'payment.giftCards[1].amount');
    expect(more.details).toMatchObject({ reason: 'more_than_total' });
    expect(await readBalance(engine, code)).toBe(10_000);
  });

  it('method giftCard without giftCards: 400 MISSING_REQUIRED_FIELD; with a token or tendered: 400 INVALID_FIELD_VALUE', async () => {
    await refusedThenUsable({ method: 'giftCard' }, 400, 'MISSING_REQUIRED_FIELD', 'payment.giftCards');
    const { code } = await buyGiftCard(engine);
    await refusedThenUsable({ method: 'giftCard', giftCards: [{ code }], token: 'tok_visa' }, 400, 'INVALID_FIELD_VALUE', 'payment.token');
    await refusedThenUsable({ method: 'giftCard', giftCards: [{ code }], tendered: eur(5000) }, 400, 'INVALID_FIELD_VALUE', 'payment.tendered');
    expect(await readBalance(engine, code)).toBe(5000);
  });

  it('more than 10 cards is refused by the schema', async () => {
    const cart = await ticketCart(engine, 1);
    const giftCards = Array.from({ length: 11 }, (_, i) => ({ code: `CARD${i}` }));
    expect((await checkout(engine, cart.id, cart.total, { method: 'giftCard', giftCards })).status).toBe(400);
  });
});

describe('guessing codes is throttled per API key (10 unknown codes a minute)', () => {
  it('answers 429 RATE_LIMIT_EXCEEDED with Retry-After on GET, the quote and a gift-card checkout; other keys and other checkouts go on', async () => {
    const guesser = await engine.createKey(['carts:write', 'orders:write', 'orders:read']);
    const { code } = await buyGiftCard(engine);
    for (let i = 0; i < 9; i++) expectError(await getGiftCard(engine, `GUESS${i}`, guesser), 404, 'GIFT_CARD_NOT_FOUND');
    expect((await getGiftCard(engine, code, guesser)).status).toBe(200); // a known code does not count
    // the 10th unknown code: in a checkout
    const cart = (await engine.request<{ data: { id: string; total: { amount: number; currency: string } } }>('POST', '/carts', {
      key: guesser, body: { items: [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 }] },
    })).body.data;
    expectError(await checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: [{ code: 'GUESS9' }] }, { apiKey: guesser }), 404, 'GIFT_CARD_NOT_FOUND');

    const throttled = await getGiftCard(engine, code, guesser);
    const error = expectError(throttled, 429, 'RATE_LIMIT_EXCEEDED');
    expect(error.type).toBe('RATE_LIMIT_ERROR');
    const retryAfter = Number(throttled.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expectError(await engine.request('POST', `/carts/${cart.id}/gift-card-quote`, { key: guesser, body: { giftCards: [{ code }] } }), 429, 'RATE_LIMIT_EXCEEDED');
    expectError(await checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: [{ code }] }, { apiKey: guesser }), 429, 'RATE_LIMIT_EXCEEDED');
    expect(await readBalance(engine, code)).toBe(5000); // another key reads it
    orderOf(await checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa' }, { apiKey: guesser }));
  });
});

describe('POST /carts/{cartId}/gift-card-quote', () => {
  it('answers each part with the balance before and after, and what is left to pay; nothing is held', async () => {
    const first = await buyGiftCard(engine, 'gift-25');
    const second = await buyGiftCard(engine, 'gift-25');
    const cart = await ticketCart(engine, 2); // 7800
    const quote = await engine.request<{ data: unknown }>('POST', `/carts/${cart.id}/gift-card-quote`, { body: { giftCards: [{ code: first.code }, { code: second.code.toLowerCase(), amount: eur(1000) }] } });
    expect(quote.status).toBe(200);
    expect(quote.body.data).toEqual({
      parts: [
        { code: first.code, amount: eur(2500), balance: eur(2500), balanceAfter: eur(0) },
        { code: second.code, amount: eur(1000), balance: eur(2500), balanceAfter: eur(1500) },
      ],
      remaining: eur(4300),
    });
    expect(await readBalance(engine, first.code)).toBe(2500);
    expectError(await engine.request('POST', `/carts/${cart.id}/gift-card-quote`, { body: { giftCards: [{ code: first.code, amount: eur(3000) }] } }), 402, 'GIFT_CARD_INSUFFICIENT_BALANCE', 'giftCards[0]');
    expectError(await engine.request('POST', `/carts/${cart.id}/gift-card-quote`, { body: { giftCards: [{ code: 'NOPE' }] } }), 404, 'GIFT_CARD_NOT_FOUND', 'giftCards[0].code');
    expectError(await engine.request('POST', '/carts/nope/gift-card-quote', { body: { giftCards: [{ code: first.code }] } }), 404, 'RESOURCE_NOT_FOUND');
    expect((await engine.request('POST', `/carts/${cart.id}/gift-card-quote`, { body: { giftCards: [] } })).status).toBe(400);
  });
});
