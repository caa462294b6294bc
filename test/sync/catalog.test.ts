import { afterEach, describe, expect, it } from 'vitest';
import type { Cart } from '../helpers/cart-assertions';
import { FEST, UPSTREAMS, expectArrivedExactlyOnce, startPair, syncCatalog, waitForStatus, waitForSynced, waitUntil, type Order, type SyncPair } from './harness';

/** Done when #6: a catalog price change upstream reaches the kiosk's next cart. */

const pairs: SyncPair[] = [];
afterEach(async () => {
  await Promise.all(pairs.splice(0).map((pair) => pair.close()));
});

const ADULTS = { occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.field.inventoryItemId, priceOptionId: FEST.field.adult, quantity: 2 };

describe.each(UPSTREAMS)('the catalog pulled from the upstream ($kind)', ({ kind }) => {
  it("a price changed upstream reaches the kiosk's next cart; a cart already held keeps its price", async () => {
    const pair = await startPair({ kind, proxy: { seed: 6 }, sync: { pullIntervalMs: 200 } });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;
    await waitForStatus(kiosk, (status) => status.online === true && status.lastSuccessAt !== null, 10_000, 'the first catalog pull');

    const newCart = async (): Promise<Cart> => {
      const created = await kiosk.request<{ data: Cart }>('POST', '/carts', { body: { items: [ADULTS] } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.data;
    };
    const held = await newCart();
    expect(held.items[0]?.unitPrice).toEqual({ amount: FEST.prices.adult, currency: 'EUR' });
    expect(held.total).toEqual({ amount: 2 * FEST.prices.adult, currency: 'EUR' });

    // The price changes at the upstream (the kiosk's own catalog is not touched). Counted before the change is
    // sent: a pull may read the new catalog while the PUT's answer still waits for the disk (group commit).
    const pullsAtChange = proxy.counters.upstreamStatus['GET /catalog 200'] ?? 0;
    const changed = await upstream.request('PUT', '/catalog', { key: upstream.keys.catalogWrite, body: syncCatalog({ adult: 3900 }) });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);

    // The kiosk's next cart, once the next pull is in, has the new price.
    let next: Cart | undefined;
    await waitUntil(
      async () => {
        const cart = await newCart();
        if (cart.items[0]?.unitPrice.amount === 3900) {
          next = cart;
          return true;
        }
        expect((await kiosk.request('DELETE', `/carts/${cart.id}`)).status).toBe(204);
        return false;
      },
      10_000,
      'the new price to reach the kiosk',
    );
    expect(proxy.counters.upstreamStatus['GET /catalog 200'] ?? 0).toBeGreaterThan(pullsAtChange);
    if (!next) throw new Error('no cart at the new price');
    expect(next.total).toEqual({ amount: 2 * 3900, currency: 'EUR' });
    const inventory = await kiosk.request<{ data: { areas: { id: string; priceOptions: { id: string; price: { amount: number } }[] }[] } }>(
      'GET',
      `/occurrences/${FEST.occurrenceId}/inventory`,
    );
    expect(inventory.status).toBe(200);
    const field = inventory.body.data.areas.find((area) => area.id === FEST.field.areaId);
    expect(field?.priceOptions.find((option) => option.id === FEST.field.adult)?.price.amount).toBe(3900);

    // A line's price is fixed when it is added: the cart held before the change keeps it.
    const reread = await kiosk.request<{ data: Cart }>('GET', `/carts/${held.id}`);
    expect(reread.status).toBe(200);
    expect(reread.body.data.total).toEqual({ amount: 2 * FEST.prices.adult, currency: 'EUR' });

    // A sale at the new price goes upstream at that price, once.
    const placed = await kiosk.request<{ data: Order }>('POST', '/orders', {
      body: { cartId: next.id, expectedTotal: next.total, payment: { method: 'cash' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    await waitForSynced(kiosk, 15_000);
    const [arrived] = await expectArrivedExactlyOnce(upstream, [placed.body.data]);
    expect(arrived?.total).toEqual({ amount: 2 * 3900, currency: 'EUR' });
  }, 60_000);
});
