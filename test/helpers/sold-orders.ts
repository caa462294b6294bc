import type { CatalogDocument } from '../../engine/contract/catalog';
import type { Order } from '../../engine/contract/order';
import { createSimulator } from '../../engine/payments/simulator';
import { immediate, openDatabase } from '../../engine/store/db';
import { importCatalog } from '../../engine/use-cases/catalog';
import { beginCheckout } from '../../engine/use-cases/checkout-begin';
import { settleCheckout } from '../../engine/use-cases/checkout-settle';
import { createContext } from '../../engine/use-cases/context';
import { createCart } from '../../engine/use-cases/create-cart';

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

export function sellDirect(dataDir: string, count: number, sale: DirectSale, catalog?: CatalogDocument): Order[] {
  const db = openDatabase(dataDir);
  try {
    const simulator = createSimulator(db, { baseUrl: () => 'http://127.0.0.1', now: Date.now });
    const ctx = createContext(db, { holdSeconds: 900, now: Date.now, payments: simulator.provider, syncing: true });
    if (catalog) importCatalog(ctx, catalog);
    return immediate(db, () =>
      Array.from({ length: count }, (_, i) => {
        const cart = createCart(ctx, { items: [{ ...sale, quantity: 1 + (i % 2) }] });
        const start = beginCheckout(
          ctx,
          { apiKeyId: 'direct-sale', apiKeyScopes: ['orders:write'], idempotencyKey: crypto.randomUUID(), body: { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'cash' } } },
          Date.now(),
        );
        if (start.kind !== 'charge') throw new Error('a fresh key replayed');
        const settled = settleCheckout(ctx, start.attempt, { status: 'approved' }, Date.now());
        if ('error' in settled) throw settled.error;
        return settled.order;
      }),
    );
  } finally {
    db.close();
  }
}
