import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorEnvelope } from '../helpers/engine';
import { FEST, expectArrivedExactlyOnce, sellItem, startPair, waitForSynced, type SyncPair } from './harness';

/**
 * Contract §10 against a plain v3 upstream (no allocations): online, each cart is held upstream first — what the
 * upstream cannot sell is refused before the customer pays, and the order is delivered into that very cart;
 * offline, nothing is sold without --offline-sales (503 UPSTREAM_UNAVAILABLE), and with it the sale goes on.
 */

const pairs: SyncPair[] = [];
afterEach(async () => {
  await Promise.all(pairs.splice(0).map((pair) => pair.close()));
});

const vip = { occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.vip.inventoryItemId, priceOptionId: FEST.vip.priceOptionId, quantity: 1 };

describe('a terminal of a plain v3 upstream', () => {
  it('holds each cart upstream first and delivers the order into it; refuses what the upstream cannot sell', async () => {
    const pair = await startPair({ kind: 'v3', proxy: { seed: 5 }, kiosk: { offlineSales: false } });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;
    const order = await sellItem(kiosk, FEST.vip.inventoryItemId, FEST.vip.priceOptionId);
    // The one VIP pass was held upstream by the kiosk's cart before it was sold here: the web shop cannot have it.
    const web = await upstream.request<ErrorEnvelope>('POST', '/carts', { body: { items: [vip] } });
    expect(web.status).toBe(409);
    const status = await waitForSynced(kiosk, 30_000);
    expect(status.conflicts).toEqual([]);
    await expectArrivedExactlyOnce(upstream, [order]);
    // One upstream cart for the sale: the delivery used the cart held at the sale.
    expect(proxy.counters.upstreamStatus['POST /carts 201']).toBe(1);

    const second = await kiosk.request<ErrorEnvelope>('POST', '/carts', { body: { items: [vip] } });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('INVENTORY_EXHAUSTED');

    // A cart released at the till releases its upstream hold at once.
    const box = { occurrenceId: FEST.occurrenceId, inventoryItemId: 'B7', priceOptionId: FEST.boxes.priceOptionId, quantity: 1 };
    const held = await kiosk.request<{ data: { id: string } }>('POST', '/carts', { body: { items: [box] } });
    expect(held.status).toBe(201);
    expect((await upstream.request('POST', '/carts', { body: { items: [box] } })).status).toBe(409);
    expect((await kiosk.request('DELETE', `/carts/${held.body.data.id}`)).status).toBe(204);
    expect((await upstream.request('POST', '/carts', { body: { items: [box] } })).status).toBe(201);
  }, 60_000);

  it('offline: 503 UPSTREAM_UNAVAILABLE without --offline-sales; with it, it sells', async () => {
    const strict = await startPair({ kind: 'v3', proxy: { seed: 6, down: true }, kiosk: { offlineSales: false } });
    pairs.push(strict);
    const refused = await strict.kiosk.request<ErrorEnvelope>('POST', '/carts', { body: { items: [vip] } });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ type: 'SERVICE_UNAVAILABLE', code: 'UPSTREAM_UNAVAILABLE' });

    const lenient = await startPair({ kind: 'v3', proxy: { seed: 6, down: true }, kiosk: { offlineSales: true } });
    pairs.push(lenient);
    await sellItem(lenient.kiosk, FEST.vip.inventoryItemId, FEST.vip.priceOptionId);
  }, 60_000);
});
