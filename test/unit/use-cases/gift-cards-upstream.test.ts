import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoCatalog } from '../../../engine/catalog/demo';
import { importCatalog } from '../../../engine/catalog/catalog';
import { createCartIn } from '../../../engine/carts/create-cart';
import { beginCheckoutIn } from '../../../engine/checkout/checkout-begin';
import { settleCheckoutIn } from '../../../engine/checkout/checkout-settle';
import { createSimulator } from '../../../engine/checkout/payments/simulator';
import { EngineError } from '../../../engine/domain/errors';
import { createContext } from '../../../engine/shared/context';
import { openDatabase } from '../../../engine/store/db';
import { createSqliteStore } from '../../../engine/store/sqlite-store';

/**
 * A terminal's checkout with gift-card parts its hub quoted (issue #24, `upstreamGiftCards`): the attempt takes the
 * remainder, nothing is held in the terminal's own ledger, and the order's payment lists the parts.
 */
describe('beginCheckoutIn with parts decided at the hub', () => {
  it('charges the remainder, holds nothing locally, and shows the parts on the order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kassa-gift-upstream-'));
    const store = createSqliteStore(openDatabase(dir), { groupCommit: false });
    try {
      const simulator = createSimulator(store, { baseUrl: () => 'http://127.0.0.1', now: Date.now });
      const ctx = createContext(store, { holdSeconds: 900, now: Date.now, payments: simulator.provider });
      await importCatalog(ctx, demoCatalog());
      const order = await store.transaction(async (tx) => {
        const cart = await createCartIn(ctx, tx, { items: [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 2 }] });
        const request = { apiKeyId: 'till', apiKeyScopes: ['orders:write'], idempotencyKey: crypto.randomUUID(), body: { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'cash' as const } } };
        const tooMuch = await beginCheckoutIn(ctx, tx, { ...request, upstreamGiftCards: [{ code: 'HUBCARD', amount: 9000 }] }, Date.now()).catch((error: unknown) => error);
        expect(tooMuch).toBeInstanceOf(EngineError);
        const start = await beginCheckoutIn(ctx, tx, { ...request, upstreamGiftCards: [{ code: 'HUBCARD', amount: 5000 }] }, Date.now());
        if (start.kind !== 'charge') throw new Error('a fresh key replayed');
        expect(start.attempt).toMatchObject({ method: 'cash', amount: 2800 });
        expect(await tx.giftCards.ofAttempt(start.attempt.id)).toEqual([]);
        const settled = await settleCheckoutIn(ctx, tx, start.attempt, { status: 'approved' }, Date.now());
        if ('error' in settled) throw settled.error;
        return settled.order;
      });
      expect(order.payment).toMatchObject({ method: 'cash', amount: { amount: 2800, currency: 'EUR' }, giftCards: [{ code: 'HUBCARD', amount: { amount: 5000, currency: 'EUR' } }] });
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
