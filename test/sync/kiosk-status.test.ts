import { afterEach, expect, it } from 'vitest';
import type { Cart } from '../helpers/cart-assertions';
import { FEST, sell, sellItem, startPair, waitForSynced, type SyncPair } from './harness';

/**
 * The kiosk's key (from /ui-config.json, scope `sync:status`) reads the connection and the backlog for its
 * header, never the conflict inbox (other tills' refused orders: ids, codes, messages) nor the holdings, which
 * are staff's (`sync`).
 */
const pairs: SyncPair[] = [];
afterEach(async () => {
  await Promise.all(pairs.splice(0).map((pair) => pair.close()));
});

it('GET /sync/status answers the kiosk key the connection and backlog, with no conflict inbox and no holdings', async () => {
  const pair = await startPair({ kind: 'hub', proxy: { seed: 5, down: true }, sync: { pullIntervalMs: 100 } });
  pairs.push(pair);
  const { upstream, kiosk, proxy } = pair;
  // the hub sells its last VIP pass while the till is offline …
  const upstreamCart = await upstream.request<{ data: Cart }>('POST', '/carts', {
    body: { items: [{ occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.vip.inventoryItemId, priceOptionId: FEST.vip.priceOptionId, quantity: 1 }] },
  });
  const sold = await upstream.request('POST', '/orders', {
    body: { cartId: upstreamCart.body.data.id, expectedTotal: upstreamCart.body.data.total, payment: { method: 'cash' } },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(sold.status).toBe(201);
  // … and the till's box office sells it too: a conflict once the line is back
  await sellItem(kiosk, FEST.vip.inventoryItemId, FEST.vip.priceOptionId);
  await sell(kiosk, 1);
  proxy.setDown(false);
  const synced = await waitForSynced(kiosk, 30_000);
  expect(synced.conflicts).toHaveLength(1);

  const config = (await (await fetch(`${kiosk.url}/ui-config.json`)).json()) as { apiKey: string };
  const status = await kiosk.request<{ data: { online: boolean | null; waiting: number; conflicts: unknown[]; holdings: unknown[] } }>('GET', '/sync/status', { key: config.apiKey });
  expect(status.status).toBe(200);
  expect(status.body.data).toMatchObject({ online: true, waiting: 0, conflicts: [], holdings: [] });
  // staff (the sync scope) still see the inbox
  const staff = await kiosk.request<{ data: { conflicts: unknown[] } }>('GET', '/sync/status');
  expect(staff.body.data.conflicts).toHaveLength(1);
});
