import { describe, expect, it } from 'vitest';
import { waitFor, withCrashRig } from '../helpers/crash-engine';
import { onPostgres } from '../helpers/engine';
import type { GiftCardView } from '../helpers/gift-cards';
import { kill } from '../helpers/serve-process';

/**
 * No card loses balance unless the order exists (design of issue #24): an engine killed with SIGKILL while two
 * checkouts with gift-card parts are at the provider — one already charged, one never answered — leaves both
 * parts held; after the restart the charged one becomes an order that keeps its part (once), the other fails and
 * its part is back on the card.
 */

describe('SIGKILL while checkouts with gift-card parts are at the provider', () => {
  it('after a restart: the charged one is an order holding its part once, the other part is back on the card', async () => {
    await withCrashRig('kassa-gift-crash-', async ({ key, count, serve }) => {
      const call = async <T>(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
        const response = await fetch(`${url}/api/v3${path}`, {
          method,
          headers: { 'x-svc-api-key': key, ...(body !== undefined && { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }) },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        });
        return { status: response.status, body: (await response.json()) as T };
      };
      const newCart = async (url: string, items: unknown[]) => {
        const made = await call<{ data: { id: string; total: { amount: number; currency: string } } }>(url, 'POST', '/carts', { items });
        expect(made.status).toBe(201);
        return made.body.data;
      };

      const first = await serve(['--psp-answer-delay-ms', '60000']);
      // the card is sold for cash (the provider answers late on purpose)
      const giftCart = await newCart(first.url, [{ occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId: 'gift-100', quantity: 1 }]);
      const sold = await call<{ data: { giftCards: { code: string }[] } }>(first.url, 'POST', '/orders', { cartId: giftCart.id, expectedTotal: giftCart.total, payment: { method: 'cash' } });
      expect(sold.status).toBe(201);
      const code = sold.body.data.giftCards[0]?.code ?? '';

      const charged = await newCart(first.url, [{ occurrenceId: 'tempest-2027-04-02', inventoryItemId: 'C7', priceOptionId: 'stalls-full', quantity: 1 }]);
      const silent = await newCart(first.url, [{ occurrenceId: 'tempest-2027-04-02', inventoryItemId: 'C8', priceOptionId: 'stalls-full', quantity: 1 }]);
      const lost = [
        call(first.url, 'POST', '/orders', { cartId: charged.id, expectedTotal: charged.total, payment: { method: 'card', token: 'tok_visa', giftCards: [{ code, amount: { amount: 2000, currency: 'EUR' } }] } }),
        call(first.url, 'POST', '/orders', { cartId: silent.id, expectedTotal: silent.total, payment: { method: 'card', token: 'tok_timeout', giftCards: [{ code, amount: { amount: 1500, currency: 'EUR' } }] } }),
      ].map((request) => request.then((answer) => answer.status).catch(() => 'connection lost'));
      await waitFor(async () => (await count('SELECT COUNT(*) AS n FROM psp_charges')) === 1 && (await count("SELECT COUNT(*) AS n FROM payment_attempts WHERE state = 'pending'")) === 2, 15_000);
      const held = await call<{ data: GiftCardView }>(first.url, 'GET', `/gift-cards/${code}`);
      expect([held.body.data.balance.amount, held.body.data.transactions]).toEqual([10000 - 2000 - 1500, []]);
      await kill(first, 'SIGKILL');
      expect(await Promise.all(lost)).toEqual(['connection lost', 'connection lost']);

      const second = await serve();
      // on PostgreSQL the attempts' leases (the provider deadline) run out first, then a sweep settles them
      await waitFor(async () => (await count("SELECT COUNT(*) AS n FROM payment_attempts WHERE state = 'pending'")) === 0, onPostgres ? 75_000 : 10_000);
      const orders = await call<{ data: { id: string; cartId: string; status: string }[] }>(second.url, 'GET', '/orders?limit=10');
      const order = orders.body.data.find((candidate) => candidate.cartId === charged.id);
      expect(order?.status).toBe('confirmed');
      expect(orders.body.data.find((candidate) => candidate.cartId === silent.id)).toBeUndefined();
      const view = (await call<{ data: GiftCardView }>(second.url, 'GET', `/gift-cards/${code}`)).body.data;
      expect(view.balance.amount).toBe(8000);
      expect(view.transactions.map((entry) => [entry.orderId, entry.amount.amount])).toEqual([[order?.id, -2000]]);
    });
  }, 150_000);
});
