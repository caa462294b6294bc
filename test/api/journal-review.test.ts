import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOC, allocationCatalog } from '../fixtures/allocation-catalog';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { journalEntries } from '../helpers/journal';
import type { Order } from '../helpers/orders';
import { catalogFile, SYNC_SCOPES } from '../sync/harness';

/**
 * Review of issue #25: a terminal's own cancellation of an order it imported is in the terminal's journal, not its
 * hub's — also when the terminal's sync key was replaced since the import (`keys replace` keeps the owner: the same
 * terminal). Journalled at the hub too, it would be counted twice (once in the terminal's shift, once in the hub's).
 */

let hub: TestEngine;
const file = catalogFile(allocationCatalog({ floor: 4, seats: 1 }));

beforeAll(async () => {
  hub = await startTestEngine({ catalogFile: file.path, demo: false });
});
afterAll(async () => {
  await hub.close();
  file.remove();
});

const floor = { occurrenceId: ALLOC.occurrenceId, inventoryItemId: ALLOC.floor.inventoryItemId, priceOptionId: ALLOC.floor.priceOptionId, quantity: 1 };

describe('a terminal cancels an order it imported, under its replaced key', () => {
  it('the hub does not journal it (it is in the terminal\'s journal)', async () => {
    const before = await hub.createKey(SYNC_SCOPES, { owner: 'till-review' });
    const after = await hub.createKey(SYNC_SCOPES, { owner: 'till-review' });
    const answer = await hub.request<{ data: { results: { order?: Order }[] } }>('POST', '/orders/import', {
      key: before,
      body: { orders: [{ idempotencyKey: crypto.randomUUID(), reference: 'till-review-1', items: [floor], expectedTotal: { amount: ALLOC.floor.price, currency: 'EUR' } }] },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const id = answer.body.data.results[0]?.order?.id ?? '';
    expect((await hub.request('POST', `/orders/${id}/cancel`, { key: after })).status).toBe(200);
    expect((await journalEntries(hub)).filter((entry) => entry.ref === id)).toEqual([]);
  });
});
