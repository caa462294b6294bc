import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOC, allocationCatalog } from '../fixtures/allocation-catalog';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { canonical, journalEntries, ZERO_HASH } from '../helpers/journal';
import { createHash } from 'node:crypto';
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

/** A terminal's first journal entry, a shift opened: hashed here (contract §14), not by the engine. */
function shiftOpened(shiftId: string) {
  const unhashed = { seq: 1, at: '2027-06-01T18:00:00.000Z', kind: 'shiftOpened', ref: shiftId, amount: { amount: 10_000, currency: 'EUR' }, data: { shiftId, number: 1, staff: 'Bo' }, prevHash: ZERO_HASH };
  return { ...unhashed, hash: createHash('sha256').update(unhashed.prevHash + canonical(unhashed)).digest('hex') };
}

describe("a terminal's key at its hub reads no other terminal's shifts", () => {
  it('?terminal=all and ?terminal=<another> list only its own; orders:any (the box office) and admin see all', async () => {
    const tillA = await hub.createKey([...SYNC_SCOPES, 'orders:read'], { owner: 'till-a' });
    const tillB = await hub.createKey([...SYNC_SCOPES, 'orders:read'], { owner: 'till-b' });
    for (const [key, shiftId] of [[tillA, 'shf_a'], [tillB, 'shf_b']] as const) {
      const stored = await hub.request('POST', '/hub/journal', { key, body: { entries: [shiftOpened(shiftId)] } });
      expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    }
    const ids = async (query: string, key?: string) => {
      const answer = await hub.request<{ data: { id: string }[] }>('GET', `/shifts?terminal=${query}`, key === undefined ? {} : { key });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data.map((shift) => shift.id).sort();
    };
    expect(await ids('all', tillA)).toEqual(['shf_a']);
    expect(await ids('till-b', tillA)).toEqual([]);
    expect(await ids('till-a', tillA)).toEqual(['shf_a']);
    expect(await ids('all')).toEqual(['shf_a', 'shf_b']);
    const boxOffice = await hub.createKey(['orders:read', 'orders:any']);
    expect(await ids('till-b', boxOffice)).toEqual(['shf_b']);
  });
});

describe('odd input at the hub', () => {
  it("a terminal's entry whose data holds a number JSON cannot hold (1e400) is a 400, not a 5xx", async () => {
    const till = await hub.createKey(SYNC_SCOPES, { owner: 'till-odd' });
    const entry = shiftOpened('shf_odd');
    const rawBody = JSON.stringify({ entries: [{ ...entry, data: { ...entry.data, staff: 0 } }] }).replace('"staff":0', '"staff":1e400');
    const answer = await hub.request<{ error?: { code: string } }>('POST', '/hub/journal', { key: till, rawBody });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  });
});
