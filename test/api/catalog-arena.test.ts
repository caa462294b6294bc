import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AvailabilityView, CatalogDocument, InventoryView } from '../../engine/contract/catalog';
import { createCart, seat } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';

/**
 * An arena (issue #16): one occurrence of 100,000 seats in 100 blocks, through the real server. Correctness
 * only — the timings are the benchmark's (bench/run.ts). Seat ids are chosen so that their sort order
 * differs from the seat map's order, which the prepared seat map must undo.
 */

const SEATS = 100_000;
const BLOCKS = 100;
const OCCURRENCE = 'arena-2031-07-01';
const seatIdOf = (i: number) => `S${(i * 7919) % SEATS}`; // a permutation of 0…99,999: 7919 is prime to 100,000

function arena(labelSuffix = ''): CatalogDocument {
  const perBlock = SEATS / BLOCKS;
  return {
    locations: [{ id: 'arena', name: 'Arena', currencies: ['EUR'] }],
    events: [
      {
        id: 'arena-show',
        name: 'Arena Show',
        locationId: 'arena',
        kind: 'ticket',
        occurrences: [
          {
            id: OCCURRENCE,
            startsAt: '2031-07-01T19:00:00Z',
            onSale: true,
            areas: Array.from({ length: BLOCKS }, (_, b) => ({
              id: `block-${b}`,
              name: `Block ${b}`,
              seating: 'assigned' as const,
              priceOptions: [{ id: `block-${b}-full`, name: 'Full', price: { amount: 5000 + b, currency: 'EUR' } }],
              inventoryItems: Array.from({ length: perBlock }, (_, s) => ({ id: seatIdOf(b * perBlock + s), label: `Block ${b} seat ${s}${labelSuffix}`, capacity: 1 })),
            })),
          },
        ],
      },
    ],
  };
}

describe('a 100,000-seat seat map', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine({ demo: false });
    const response = await engine.request('PUT', '/catalog', { body: arena() });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  }, 240_000);
  afterAll(() => engine.close());

  const inventory = async () => {
    const response = await engine.request<{ data: InventoryView }>('GET', `/occurrences/${OCCURRENCE}/inventory`);
    expect(response.status).toBe(200);
    return response.body.data;
  };
  const availability = async (since?: string) =>
    (await engine.request<{ data: AvailabilityView }>('GET', `/occurrences/${OCCURRENCE}/availability${since ? `?since=${since}` : ''}`)).body.data;

  it('lists every seat in catalog order with its label and live numbers, and follows holds and re-imports', async () => {
    const before = await availability();
    const heldAt = [0, 54_321, SEATS - 1];
    const held = heldAt.map(seatIdOf);
    const cart = await createCart(engine, heldAt.map((i) => seat(seatIdOf(i), `block-${Math.floor(i / 1000)}-full`, OCCURRENCE)));
    expect(cart.items).toHaveLength(3);

    const data = await inventory();
    expect(data.areas).toHaveLength(BLOCKS);
    const items = data.areas.flatMap((area) => area.inventoryItems);
    expect(items).toHaveLength(SEATS);
    items.forEach((item, i) => {
      const expected = held.includes(item.id) ? { available: 0, held: 1 } : { available: 1, held: 0 };
      expect(item).toEqual({ id: seatIdOf(i), label: `Block ${Math.floor(i / 1000)} seat ${i % 1000}`, capacity: 1, ...expected });
    });
    expect(data.areas[54]?.priceOptions[0]?.price).toEqual({ amount: 5054, currency: 'EUR' });

    const full = await availability();
    expect(full.items.ids).toHaveLength(SEATS);
    expect(full.areas.reduce((n, area) => n + area.available, 0)).toBe(SEATS - 3);
    expect(full.areas.filter((area) => area.held > 0).map((area) => area.id)).toEqual(['block-0', 'block-54', 'block-99']);
    const since = await availability(before.version);
    expect(since.complete).toBe(false);
    expect(since.items.ids.slice().sort()).toEqual(held.slice().sort());
    expect(since.items.available).toEqual([0, 0, 0]);

    expect((await engine.request('PUT', '/catalog', { body: arena(' (renumbered)') })).status).toBe(200);
    const relabelled = (await inventory()).areas.flatMap((area) => area.inventoryItems);
    expect(relabelled[SEATS - 1]).toEqual({ id: seatIdOf(SEATS - 1), label: `Block 99 seat 999 (renumbered)`, capacity: 1, available: 0, held: 1 });
  }, 240_000);

  it('answers requests at the same time alike, and the next one with the numbers of its own moment', async () => {
    const text = async () => {
      const response = await fetch(`${engine.url}/api/v3/occurrences/${OCCURRENCE}/inventory`, { headers: { 'x-svc-api-key': engine.keys.admin } });
      expect(response.status).toBe(200);
      return response.text();
    };
    const heldIds = (json: string) =>
      (JSON.parse(json) as { data: InventoryView }).data.areas.flatMap((area) => area.inventoryItems).filter((item) => (item.held ?? 0) > 0).map((item) => item.id);
    // answers stream while others are read: each has its own numbers (arrays are reused once an answer is done)
    const together = await Promise.all([text(), text(), text(), text(), text(), text()]);
    for (const answer of together) expect(answer).toBe(together[0]);
    const before = heldIds(together[0] ?? '');
    await createCart(engine, [seat(seatIdOf(777), 'block-0-full', OCCURRENCE)]);
    const [after, again] = await Promise.all([text(), text()]);
    expect(after).toBe(again);
    expect(heldIds(after ?? '').sort()).toEqual([...before, seatIdOf(777)].sort());
  }, 240_000);
});
