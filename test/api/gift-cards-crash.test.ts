import { describe, expect, it } from 'vitest';
import { waitFor, withCrashRig } from '../helpers/crash-engine';
import { onPostgres } from '../helpers/engine';
import { kill } from '../helpers/serve-process';

/**
 * A crash in a checkout with gift-card parts (issue #24): the engine is killed with SIGKILL while the provider has
 * recorded the remainder's charge and its answer is on the way. The parts stay held (out of the balance, never
 * spent twice) with the pending attempt; the restart (SQLite) or the sweeper once the lease is over (PostgreSQL)
 * settles the attempt by what the provider says, and the holds follow it: approved, they are the order's.
 */

describe('SIGKILL during a checkout with a gift-card part', () => {
  it('keeps the part held while the attempt is open, and redeems it with the order the restart makes — once', async () => {
    await withCrashRig('kassa-gift-crash-', async ({ key, count, serve }) => {
      const headers = { 'x-svc-api-key': key, 'content-type': 'application/json' };
      const post = async (url: string, body: unknown, extra: Record<string, string> = {}) =>
        fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });

      const first = await serve(['--psp-answer-delay-ms', '60000']);
      // a €50 card, bought with cash (no provider)
      const giftCart = ((await (await post(`${first.url}/api/v3/carts`, { items: [{ occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId: 'gift-50', quantity: 1 }] })).json()) as { data: { id: string; total: unknown } }).data;
      const bought = await post(`${first.url}/api/v3/orders`, { cartId: giftCart.id, expectedTotal: giftCart.total, payment: { method: 'cash' } }, { 'idempotency-key': crypto.randomUUID() });
      expect(bought.status).toBe(201);
      const code = ((await bought.json()) as { data: { giftCards: { code: string }[] } }).data.giftCards[0]?.code ?? '';

      const created = await post(`${first.url}/api/v3/carts`, { items: [{ occurrenceId: 'tempest-2027-04-02', inventoryItemId: 'C7', priceOptionId: 'stalls-full', quantity: 1 }] });
      const cart = ((await created.json()) as { data: { id: string; total: { amount: number; currency: string } } }).data;
      const idempotencyKey = crypto.randomUUID();
      const body = { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa', giftCards: [{ code, amount: { amount: 1000, currency: 'EUR' } }] } };
      const lost = post(`${first.url}/api/v3/orders`, body, { 'idempotency-key': idempotencyKey }).then((r) => r.status).catch(() => 'connection lost');

      await waitFor(async () => (await count('SELECT COUNT(*) AS n FROM psp_charges')) === 1, 15_000);
      await kill(first, 'SIGKILL');
      expect(await lost).toBe('connection lost');
      expect(await count("SELECT COUNT(*) AS n FROM gift_card_entries WHERE state = 'held' AND amount = -1000")).toBe(1);
      expect(await count('SELECT COUNT(*) AS n FROM psp_charges WHERE amount = ' + String(cart.total.amount - 1000))).toBe(1);

      const second = await serve();
      if (onPostgres) await waitFor(async () => (await count("SELECT COUNT(*) AS n FROM orders WHERE cart_id = '" + cart.id + "'")) === 1, 75_000);
      expect(await count("SELECT COUNT(*) AS n FROM gift_card_entries WHERE state = 'held'")).toBe(0);
      expect(await count("SELECT COUNT(*) AS n FROM gift_card_entries WHERE state = 'settled' AND kind = 'redeem' AND amount = -1000 AND balance_after = 4000")).toBe(1);

      const retry = await post(`${second.url}/api/v3/orders`, body, { 'idempotency-key': idempotencyKey });
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      const order = ((await retry.json()) as { data: { payment: unknown } }).data;
      expect(order.payment).toMatchObject({ method: 'card', amount: { amount: cart.total.amount - 1000 }, giftCards: [{ code, amount: { amount: 1000, currency: 'EUR' } }] });
      const card = await fetch(`${second.url}/api/v3/gift-cards/${code}`, { headers });
      expect(((await card.json()) as { data: { balance: { amount: number } } }).data.balance.amount).toBe(4000);
    });
  }, 150_000);
});
