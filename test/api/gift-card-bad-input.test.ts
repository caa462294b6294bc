import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type ApiResponse, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { balanceOf, sellGiftCard } from '../helpers/gift-cards';
import { eur, newKey } from '../helpers/orders';

/**
 * A client mistake is never a 5xx (common standards): odd codes on GET /gift-cards/{code}, and malformed
 * `payment.giftCards` on checkout, each answer a 4xx in the error envelope, the card untouched.
 */

let engine: TestEngine;
let code = '';
let cartId = '';
beforeAll(async () => {
  engine = await startTestEngine();
  ({ code } = await sellGiftCard(engine, 'gift-50'));
  cartId = (await createCart(engine, [concert(1)])).id;
});
afterAll(() => engine.close());

function expectClientError(response: ApiResponse, label: string): void {
  expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBeGreaterThanOrEqual(400);
  expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBeLessThan(500);
  const error = (response.body as Partial<ErrorEnvelope>).error;
  expect(typeof error?.code, label).toBe('string');
  expect(typeof error?.type, label).toBe('string');
  expect(typeof error?.message, label).toBe('string');
}

describe('odd codes and malformed gift-card payments', () => {
  it('GET with a code of spaces, hyphens, other scripts, control characters or 5000 characters: 4xx, never 5xx', async () => {
    // a key of its own: these are unknown codes, and the throttle counts them
    for (const odd of [' ', '-', '--  --', 'Ünïcødé-КОД', '\u0000abc', '%', '../orders', 'A'.repeat(5000), code.slice(0, 19), `${code}X`]) {
      const key = await engine.createKey(['carts:write']);
      const response = await engine.request('GET', `/gift-cards/${encodeURIComponent(odd)}`, { key });
      expectClientError(response, JSON.stringify(odd.slice(0, 30)));
    }
  });

  it('malformed payment.giftCards: 400 in the envelope, the key unused and the card untouched', async () => {
    const bodies: unknown[] = [
      { method: 'giftCard', giftCards: 'all of it' },
      { method: 'giftCard', giftCards: [code] },
      { method: 'giftCard', giftCards: [{}] },
      { method: 'giftCard', giftCards: [{ code: '' }] },
      { method: 'giftCard', giftCards: [{ code: 42 }] },
      { method: 'giftCard', giftCards: [{ code, amount: 3900 }] },
      { method: 'giftCard', giftCards: [{ code, amount: { amount: 10.5, currency: 'EUR' } }] },
      { method: 'giftCard', giftCards: [{ code, amount: { amount: 2 ** 60, currency: 'EUR' } }] },
      { method: 'giftCard', giftCards: [{ code, amount: { amount: 100, currency: 'euro' } }] },
      { method: 'giftCard', giftCards: [{ code, pin: '1234' }] },
      { method: 'giftCard', giftCards: [{ code: 'A'.repeat(5000) }] },
      { method: 'giftCard', giftCards: [{ code: `\u0000${code}` }] },
      { method: 'giftCard', giftCards: [{ code: `${code.slice(0, 10)}\u0000${code.slice(10)}` }] },
      { method: 'giftCard', giftCards: null },
      { method: 'gift_card', giftCards: [{ code }] },
    ];
    const key = newKey();
    for (const payment of bodies) {
      const response = await engine.request('POST', '/orders', { body: { cartId, expectedTotal: eur(3900), payment }, headers: { 'idempotency-key': key } });
      expectClientError(response, JSON.stringify(payment).slice(0, 80));
    }
    expect(await balanceOf(engine, code)).toBe(5000);
    const paid = await engine.request('POST', '/orders', { body: { cartId, expectedTotal: eur(3900), payment: { method: 'giftCard', giftCards: [{ code }] } }, headers: { 'idempotency-key': key } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(await balanceOf(engine, code)).toBe(1100);
  });
});
