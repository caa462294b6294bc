import { afterEach, describe, expect, it } from 'vitest';
import { ALLOC, seatId } from '../fixtures/allocation-catalog';
import type { TestEngine } from '../helpers/engine';
import { expectInvariant, hubStock, sellAt, startHub, startTerminal, waitForSellable, type Terminal } from './allocation-helpers';
import { waitUntil } from './harness';

/**
 * Issue #22's allocation cap (--allocation-cap, default 25 % of an item, at least 10 places) bounds what a
 * terminal keeps in hand, never what it sells: a venue with one hub and its only till, everything at the shipped
 * defaults (--allocation 10, the top-up every 5 s), sells a group bigger than the cap online. The shortfall of
 * the sale is granted beyond the cap; what the till keeps in hand is not, and a group that is not sold goes back.
 */

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function venue(floor: number, seats = 1) {
  const { hub, catalogPath, remove } = await startHub({ floor, seats });
  closers.push(remove, () => hub.close());
  const till: Terminal = await startTerminal(hub, catalogPath, 1);
  closers.push(() => till.close());
  await waitForSellable(till.engine, ALLOC.floor.inventoryItemId, (n) => n >= 10, 10_000);
  return { hub, till };
}

function floorAtHub(hub: TestEngine) {
  const row = hubStock(hub.dataDir).find((item) => item.id === ALLOC.floor.inventoryItemId);
  if (!row) throw new Error('no floor at the hub');
  return row;
}

describe('one till at the default cap sells a group larger than the cap', () => {
  for (const [capacity, group] of [
    [100, 30],
    [100, 26],
    [200, 60],
    [120, 30],
    [500, 60],
  ] as const) {
    it(`room of ${capacity}, group of ${group}`, async () => {
      const { hub, till } = await venue(capacity);
      const sale = await sellAt(till.engine, ALLOC.floor.inventoryItemId, group);
      if (!('order' in sale)) throw new Error(`refused: ${sale.refusal.status} ${JSON.stringify(sale.refusal.body)}`);
      expect(sale.order.tickets).toHaveLength(group);
      expectInvariant(hub.dataDir);
      // the order reaches the hub; the till keeps its usual 10 in hand, within the cap
      await waitUntil(() => floorAtHub(hub).sold === group, 15_000, 'the group order at the hub');
      await waitUntil(() => floorAtHub(hub).allocated === 10, 15_000, 'the till back to its usual 10');
      expectInvariant(hub.dataDir);
    });
  }

  it("a group's places not sold go back to the venue at the next top-up", async () => {
    const { hub, till } = await venue(100);
    const cart = await till.engine.request<{ data: { id: string } }>('POST', '/carts', {
      body: { items: [{ occurrenceId: ALLOC.occurrenceId, inventoryItemId: ALLOC.floor.inventoryItemId, priceOptionId: ALLOC.floor.priceOptionId, quantity: 30 }] },
    });
    expect(cart.status).toBe(201);
    // 20 for the sale beyond the cap of 25, and 10 to keep in hand
    expect(floorAtHub(hub).allocated).toBe(40);
    expectInvariant(hub.dataDir);
    expect((await till.engine.request('DELETE', `/carts/${cart.body.data.id}`)).status).toBe(204);
    await waitUntil(() => floorAtHub(hub).allocated === 10, 15_000, 'the unsold group given back');
    expect(floorAtHub(hub)).toMatchObject({ sold: 0, held: 0 });
  });

  it('30 named seats in one order', async () => {
    const { hub, till } = await venue(100, 40);
    const cart = await till.engine.request<{ data: { id: string } }>('POST', '/carts', {
      body: { items: Array.from({ length: 30 }, (_, i) => ({ occurrenceId: ALLOC.occurrenceId, inventoryItemId: seatId(i), priceOptionId: ALLOC.seats.priceOptionId, quantity: 1 })) },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    expectInvariant(hub.dataDir);
  });
});
