import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../helpers/engine';
import { FLOOR, giftLedgerCatalog } from '../helpers/gift-catalog';
import { createTestDatabase } from '../helpers/postgres';
import { call, seedDatabase, startHub, type Hub } from '../pg/hub';

/**
 * Issue #26 on PostgreSQL (run by the `postgres` project only): engine processes sharing one database are one engine
 * and sign with one key. Two `serve` processes started at the same moment on a fresh database (migrated, no key
 * yet) both try to make the key pair at their first start; exactly one signing key is kept, and both sign with it.
 */

interface Money { amount: number; currency: string }
let hub: Hub | undefined;
afterAll(async () => {
  await hub?.close();
});

describe.skipIf(!onPostgres)('two engine processes started at once on a fresh PostgreSQL database', () => {
  it('end with one signing key, which both sign with', { timeout: 90_000 }, async () => {
    const url = await createTestDatabase({ migrated: true });
    const keys = await seedDatabase(url, giftLedgerCatalog(), ['seller']);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      expect((await db.query('SELECT key_id FROM ticket_keys')).rows).toEqual([]);
      hub = await startHub(url, 2, keys);
      const started = hub;
      expect(started.processes).toHaveLength(2);
      const rows = (await db.query<{ keyId: string; signing: number; hasPrivate: boolean }>(
        'SELECT key_id AS "keyId", signing, private_key IS NOT NULL AS "hasPrivate" FROM ticket_keys')).rows;
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ signing: 1, hasPrivate: true });
      const seller = keys.get('seller') ?? '';
      for (const index of [0, 1]) {
        const cart = await call<{ data: { id: string; total: Money } }>(started, index, seller, 'POST', '/carts',
          { items: [{ occurrenceId: FLOOR.occurrenceId, inventoryItemId: FLOOR.inventoryItemId, priceOptionId: 'adult', quantity: 1 }] });
        expect(cart.status, JSON.stringify(cart.body)).toBe(201);
        const order = await call<{ data: { tickets: { signedCode?: string }[] } }>(started, index, seller, 'POST', '/orders',
          { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } }, { 'idempotency-key': randomUUID() });
        expect(order.status, JSON.stringify(order.body)).toBe(201);
        expect(order.body.data.tickets[0]?.signedCode?.split('.')[3]).toBe(rows[0]?.keyId);
      }
    } finally {
      await db.end();
    }
  });
});
