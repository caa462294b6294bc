import type { CatalogDocument } from '../../engine/contract/catalog';
import type { Order } from '../../engine/contract/order';
import { createSimulator } from '../../engine/checkout/payments/simulator';
import { openDatabase } from '../../engine/store/db';
import { createSqliteStore } from '../../engine/store/sqlite-store';
import { importCatalog } from '../../engine/catalog/catalog';
import { beginCheckoutIn } from '../../engine/checkout/checkout-begin';
import { settleCheckoutIn } from '../../engine/checkout/checkout-settle';
import { createContext } from '../../engine/shared/context';
import { createCartIn } from '../../engine/carts/create-cart';

/**
 * Cash sales written straight into a terminal's data folder by the engine's own use cases (cart, checkout,
 * outbox entry), all in one transaction: thousands of waiting orders in a second or two, for the sync
 * backlog test and bench. What the HTTP layer adds is tested elsewhere; what is measured is the drain.
 */
export interface DirectSale {
  readonly occurrenceId: string;
  readonly inventoryItemId: string;
  readonly priceOptionId: string;
}

export async function sellDirect(dataDir: string, count: number, sale: DirectSale, catalog?: CatalogDocument): Promise<Order[]> {
  const store = createSqliteStore(openDatabase(dataDir), { groupCommit: false });
  try {
    const simulator = createSimulator(store, { baseUrl: () => 'http://127.0.0.1', now: Date.now });
    const ctx = createContext(store, { holdSeconds: 900, now: Date.now, payments: simulator.provider, syncing: true });
    if (catalog) await importCatalog(ctx, catalog);
    return await store.transaction(async (tx) => {
      const orders: Order[] = [];
      for (let i = 0; i < count; i++) {
        const cart = await createCartIn(ctx, tx, { items: [{ ...sale, quantity: 1 + (i % 2) }] });
        const start = await beginCheckoutIn(
          ctx,
          tx,
          { apiKeyId: 'direct-sale', apiKeyScopes: ['orders:write'], idempotencyKey: crypto.randomUUID(), body: { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'cash' } } },
          Date.now(),
        );
        if (start.kind !== 'charge') throw new Error('a fresh key replayed');
        const settled = await settleCheckoutIn(ctx, tx, start.attempt, { status: 'approved' }, Date.now());
        if ('error' in settled) throw settled.error;
        orders.push(settled.order);
      }
      return orders;
    });
  } finally {
    await store.close();
  }
}
