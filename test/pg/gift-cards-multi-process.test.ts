import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { demoCatalog } from '../../engine/catalog/demo';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { call } from './hub';
import { hubSuite } from './hub-suite';

/**
 * Issue #24 "Done when": concurrent spends of one gift card never take it below zero, also across engine
 * processes — two `serve` processes on one PostgreSQL database, checkouts spending one card sent to both at once.
 */

interface Money { amount: number; currency: string }
interface Cart { id: string; total: Money }
interface Order { id: string; giftCards: { code: string }[]; payment: { giftCards?: { amount: Money }[] } }

describe.skipIf(!postgresAvailable())(postgresSuite('gift-card spends across two engine processes on one PostgreSQL database'), () => {
  const { started, keyOf, query } = hubSuite({ catalog: demoCatalog(), keyNames: ['till'], processes: 2, args: ['--rate-limit', '0'] });

  it('twelve checkouts of 1000 each of a 5000 card, on both processes at once: five orders, the rest 402, the card at 0', async () => {
    const h = started();
    const key = keyOf('till');
    const giftCart = (await call<{ data: Cart }>(h, 0, key, 'POST', '/carts', { items: [{ occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId: 'gift-50', quantity: 1 }] })).body.data;
    const bought = await call<{ data: Order }>(h, 0, key, 'POST', '/orders', { cartId: giftCart.id, expectedTotal: giftCart.total, payment: { method: 'cash' } }, { 'idempotency-key': randomUUID() });
    const code = bought.body.data.giftCards[0]?.code ?? '';
    const carts = await Promise.all(Array.from({ length: 12 }, async (_, i) =>
      (await call<{ data: Cart }>(h, i % 2, key, 'POST', '/carts', { items: [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 }] })).body.data));
    const answers = await Promise.all(carts.map((cart, i) => call<{ data?: Order; error?: { code: string } }>(h, i % 2, key, 'POST', '/orders',
      { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa', giftCards: [{ code, amount: { amount: 1000, currency: 'EUR' } }] } },
      { 'idempotency-key': randomUUID() })));
    const made = answers.filter((answer) => answer.status === 201);
    expect(made, JSON.stringify(answers.map((a) => [a.process, a.status, a.body.error?.code]))).toHaveLength(5);
    for (const answer of answers.filter((a) => a.status !== 201)) expect([answer.status, answer.body.error?.code]).toEqual([402, 'GIFT_CARD_INSUFFICIENT_BALANCE']);
    expect(new Set(made.map((answer) => answer.process)).size).toBeGreaterThan(0);
    const balance = await call<{ data: { balance: Money; transactions: unknown[] } }>(h, 1, key, 'GET', `/gift-cards/${code}`);
    expect(balance.body.data.balance).toEqual({ amount: 0, currency: 'EUR' });
    expect(balance.body.data.transactions).toHaveLength(5);
    const rows = await query<{ total: string; n: string }>("SELECT SUM(amount)::text AS total, COUNT(*)::text AS n FROM gift_card_entries WHERE code = $1", [code]);
    expect(rows[0]).toEqual({ total: '-5000', n: '5' });
  }, 120_000);
});
