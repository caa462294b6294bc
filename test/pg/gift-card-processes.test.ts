import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FLOOR, giftLedgerCatalog } from '../helpers/gift-catalog';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { call, type Hub } from './hub';
import { hubSuite } from './hub-suite';

/**
 * Issue #24: concurrent spends of one card never go below zero, also across engine processes on PostgreSQL.
 * Three `serve` processes on one database at the shipped defaults, many buyers (each its own key) paying with
 * the same card at once through all three: the balance never goes below zero (watched in the database while
 * they race), what the card lost is what the orders took, every refusal is 402 GIFT_CARD_INSUFFICIENT_BALANCE,
 * and no answer is a 5xx.
 */

const BUYERS = 30;
const KEY_NAMES = ['seller', ...Array.from({ length: BUYERS }, (_, i) => `buyer-${i}`)];

interface Money { amount: number; currency: string }
interface GiftCardView { code: string; initial: Money; balance: Money; status: string; transactions: { orderId: string; amount: Money }[] }
type Paid = { data?: PaidOrder; error?: { code: string; type: string } };
interface PaidOrder { id: string; payment: { method: string; amount: Money; giftCards?: { code: string; amount: Money }[] } }

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const ticketCart = (priceOptionId: string, quantity: number) => ({ items: [{ occurrenceId: FLOOR.occurrenceId, inventoryItemId: FLOOR.inventoryItemId, priceOptionId, quantity }] });

describe.skipIf(!postgresAvailable())(postgresSuite('one gift card spent at once through three engine processes on one PostgreSQL database'), () => {
  const { started, keyOf, query } = hubSuite({ catalog: giftLedgerCatalog(), keyNames: KEY_NAMES, processes: 3 });

  async function sellCard(h: Hub, priceOptionId: string): Promise<string> {
    const cart = await call<{ data: { id: string; total: Money } }>(h, 0, keyOf('seller'), 'POST', '/carts', { items: [{ occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId, quantity: 1 }] });
    expect(cart.status).toBe(201);
    const order = await call<{ data: { giftCards: { code: string }[] } }>(h, 1, keyOf('seller'), 'POST', '/orders', { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'card', token: 'tok_visa' } }, { 'idempotency-key': randomUUID() });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    return order.body.data.giftCards[0]?.code ?? '';
  }

  it('never below zero, what the card lost is what the orders took, refusals 402, no 5xx', { timeout: 60_000 }, async () => {
    const h = started();
    for (const round of [0, 1, 2]) {
      const code = await sellCard(h, 'gift-100'); // 10000
      // every buyer's cart first (its own key, on a process of its own), then every checkout at once
      const carts = await Promise.all(Array.from({ length: BUYERS }, async (_, i) => {
        const made = await call<{ data: { id: string; total: Money } }>(h, i % 3, keyOf(`buyer-${i}`), 'POST', '/carts', ticketCart(i % 2 === 0 ? 'child' : 'student', 1));
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        return made.body.data;
      }));
      const violations: unknown[] = [];
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          const rows = await query<{ code: string; balance: string }>(
            `SELECT g.code, g.amount + COALESCE(SUM(e.amount), 0) AS balance FROM gift_cards g
               LEFT JOIN gift_card_entries e ON e.code = g.code GROUP BY g.code, g.amount HAVING g.amount + COALESCE(SUM(e.amount), 0) < 0`);
          violations.push(...rows);
          await sleep(15);
        }
      })();
      const answers = await Promise.all(carts.map((cart, i) => {
        // child 1500 / student 2900: a third pays all by gift card, a third 1200 of it with the rest by card, a third all it can with the rest in cash
        const payment = i % 3 === 0 ? { method: 'giftCard', giftCards: [{ code }] }
          : i % 3 === 1 ? { method: 'card', token: 'tok_visa', giftCards: [{ code, amount: { amount: 1200, currency: 'EUR' } }] }
            : { method: 'cash', giftCards: [{ code }] };
        return call<Paid>(h, (i + round + 1) % 3, keyOf(`buyer-${i}`), 'POST', '/orders', { cartId: cart.id, expectedTotal: cart.total, payment }, { 'idempotency-key': randomUUID() });
      }));
      watching = false;
      await watcher;

      expect(answers.filter((a) => a.status >= 500 || a.status === 0).map((a) => [a.process, a.status, a.body])).toEqual([]);
      let taken = 0;
      for (const answer of answers) {
        if (answer.status === 201) {
          taken += answer.body.data?.payment.giftCards?.find((part) => part.code === code)?.amount.amount ?? 0;
        } else {
          expect([answer.status, answer.body.error?.code, answer.body.error?.type], JSON.stringify(answer.body)).toEqual([402, 'GIFT_CARD_INSUFFICIENT_BALANCE', 'PAYMENT_ERROR']);
        }
      }
      expect(violations).toEqual([]);
      // several spends got through at once, more than one of them on the card
      expect(answers.filter((a) => a.status === 201 && (a.body.data?.payment.giftCards?.length ?? 0) > 0).length).toBeGreaterThan(2);
      expect(taken).toBeLessThanOrEqual(10000);
      // the cash buyers take what is left, so a busy round empties the card or leaves less than any cart costs
      for (const index of [0, 1, 2]) {
        const read = await call<{ data: GiftCardView }>(h, index, keyOf('seller'), 'GET', `/gift-cards/${code}`);
        expect(read.status).toBe(200);
        const view = read.body.data;
        expect(view.balance.amount, `process ${index}`).toBe(10000 - taken);
        expect(view.initial.amount + view.transactions.reduce((sum, entry) => sum + entry.amount.amount, 0)).toBe(view.balance.amount);
        expect(view.transactions).toHaveLength(answers.filter((a) => a.status === 201 && a.body.data?.payment.giftCards?.some((part) => part.code === code)).length);
      }
    }
  });
});
