import { describe, expect, it } from 'vitest';
import { waitFor, withCrashRig } from '../helpers/crash-engine';
import { onPostgres } from '../helpers/engine';
import { kill } from '../helpers/serve-process';

/**
 * A crash between the provider's approval and the order's commit: the engine process is killed with
 * SIGKILL while the simulated provider has recorded the charge but its answer is still on the way.
 */

describe('SIGKILL between the provider approval and the order commit', () => {
  it('ends with exactly one order and one charge after a restart, and the retry replays it', async () => {
    await withCrashRig('kassa-crash-', async ({ key, count, serve }) => {
      const headers = { 'x-svc-api-key': key, 'content-type': 'application/json' };

      const first = await serve(['--psp-answer-delay-ms', '60000']);
      const created = await fetch(`${first.url}/api/v3/carts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ items: [{ occurrenceId: 'tempest-2027-04-02', inventoryItemId: 'C7', priceOptionId: 'stalls-full', quantity: 1 }] }),
      });
      expect(created.status).toBe(201);
      const cart = ((await created.json()) as { data: { id: string; total: { amount: number; currency: string } } }).data;

      const idempotencyKey = crypto.randomUUID();
      const checkout = JSON.stringify({ cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa' } });
      const lost = fetch(`${first.url}/api/v3/orders`, { method: 'POST', headers: { ...headers, 'idempotency-key': idempotencyKey }, body: checkout })
        .then((response) => response.status)
        .catch(() => 'connection lost');

      await waitFor(async () => (await count('SELECT COUNT(*) AS n FROM psp_charges')) === 1, 15_000);
      await kill(first, 'SIGKILL');
      expect(await lost).toBe('connection lost');
      expect(await count('SELECT COUNT(*) AS n FROM orders')).toBe(0);
      expect(await count("SELECT COUNT(*) AS n FROM payment_attempts WHERE state = 'pending'")).toBe(1);

      const second = await serve();
      // On PostgreSQL other live processes may share the database: a start cannot tell the killed process's attempt
      // from a live one's, so it leaves an attempt whose lease (the provider deadline, 30 s) still runs, and the
      // sweeper (every 30 s) settles it once the lease is over — within the minute the contract promises.
      if (onPostgres) await waitFor(async () => (await count('SELECT COUNT(*) AS n FROM orders')) === 1, 75_000);
      expect(await count('SELECT COUNT(*) AS n FROM orders')).toBe(1);
      expect(await count('SELECT COUNT(*) AS n FROM psp_charges')).toBe(1);

      const retry = await fetch(`${second.url}/api/v3/orders`, { method: 'POST', headers: { ...headers, 'idempotency-key': idempotencyKey }, body: checkout });
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      const order = ((await retry.json()) as { data: { id: string; cartId: string; tickets: unknown[] } }).data;
      expect(order.cartId).toBe(cart.id);
      expect(order.tickets).toHaveLength(1);

      const again = await fetch(`${second.url}/api/v3/orders`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
        body: checkout,
      });
      expect(again.status).toBe(409);
      expect(((await again.json()) as { error: { code: string; details: { orderId: string } } }).error).toMatchObject({
        code: 'CART_ALREADY_ORDERED',
        details: { orderId: order.id },
      });
      expect(await count('SELECT COUNT(*) AS n FROM orders')).toBe(1);
      expect(await count('SELECT COUNT(*) AS n FROM psp_charges')).toBe(1);
      expect(await count("SELECT sold AS n FROM inventory_items WHERE occurrence_id = 'tempest-2027-04-02' AND id = 'C7'")).toBe(1);
    });
  }, 150_000);
});
