import { afterEach, describe, expect, it } from 'vitest';
import { FEST, SYNC_SCOPES, allOrders, importedOrders, outboxOf, sell, startPair, waitForSynced, type SyncPair } from './harness';

/**
 * Issue #22: a reference another terminal's key imported first used to swallow this till's real order (the hub
 * answered the other key's order, the terminal marked its own delivered and it was never made). Now the hub
 * refuses it, and the terminal's sync puts it in the conflict inbox, where staff see it.
 */

const pairs: SyncPair[] = [];
afterEach(async () => {
  await Promise.all(pairs.splice(0).map((pair) => pair.close()));
});

describe('a reference another key claimed at the hub first', () => {
  it('lands in the conflict inbox with IMPORT_REFERENCE_TAKEN; the other key\'s order is never taken as this one', async () => {
    const pair = await startPair({ kind: 'hub', proxy: { seed: 22, down: true } });
    pairs.push(pair);
    const { upstream, kiosk, proxy } = pair;
    const sold = await sell(kiosk, 2);

    // another terminal's key claims this order's reference before the kiosk gets through
    const other = await upstream.createKey(SYNC_SCOPES);
    const claim = await upstream.request<{ data: { results: { status: number; order?: { id: string } }[] } }>('POST', '/orders/import', {
      key: other,
      body: {
        orders: [
          {
            idempotencyKey: crypto.randomUUID(),
            reference: sold.id,
            items: [{ occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.field.inventoryItemId, priceOptionId: FEST.field.adult, quantity: 1 }],
            expectedTotal: { amount: FEST.prices.adult, currency: 'EUR' },
          },
        ],
      },
    });
    expect(claim.body.data.results[0]?.status).toBe(201);
    const claimedId = claim.body.data.results[0]?.order?.id;

    proxy.setDown(false);
    const status = await waitForSynced(kiosk, 30_000);
    expect(status.conflicts).toHaveLength(1);
    expect(status.conflicts[0]).toMatchObject({ kind: 'order', orderId: sold.id, code: 'IMPORT_REFERENCE_TAKEN' });
    const entry = outboxOf(kiosk.dataDir).find((row) => row.orderId === sold.id);
    // not marked delivered, and never as the other key's order
    expect([entry?.state, entry?.upstreamOrderId]).toEqual(['conflict', null]);
    // upstream: only the other key's order carries that reference
    expect(importedOrders(await allOrders(upstream)).filter((order) => order.payment.reference === sold.id).map((order) => order.id)).toEqual([claimedId]);
  });
});
