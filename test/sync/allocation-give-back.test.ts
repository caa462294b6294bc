import { afterEach, describe, expect, it } from 'vitest';
import { ALLOC, allocationCatalog } from '../fixtures/allocation-catalog';
import { holdingOf, hubStock, startHub, startTerminal, waitForSellable } from './allocation-helpers';
import { waitUntil } from './harness';

/** Contract §10: unsold places go back when staff ask for it and when the show goes off sale. */

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('giving places back', () => {
  it('staff ask: the places in hand go back at once and are not topped up again; a sale still asks the hub', async () => {
    const { hub, catalogPath, remove } = await startHub({ floor: 40, seats: 1 });
    cleanup.push(remove, () => hub.close());
    const terminal = await startTerminal(hub, catalogPath, 21);
    cleanup.push(() => terminal.close());
    await waitForSellable(terminal.engine, 'floor', (n) => n === 10, 15_000);
    const answer = await terminal.engine.request<{ data: { holdings: { inventoryItemId: string; inHand: number }[] } }>('POST', '/sync/holdings/give-back', {
      body: { occurrenceId: ALLOC.occurrenceId },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.holdings.find((row) => row.inventoryItemId === 'floor')?.inHand).toBe(0);
    expect(hubStock(hub.dataDir).find((row) => row.id === 'floor')?.allocated).toBe(0);
    // more than one top-up cycle, at the shipped 5 s: each cycle ends by reading the hub's inventory, so two
    // such reads after the give-back mean a whole cycle ran after it
    const refreshes = () => terminal.proxy.counters.byRoute['relayed GET /occurrences/:id/inventory'] ?? 0;
    const refreshesAtGiveBack = refreshes();
    await waitUntil(() => refreshes() >= refreshesAtGiveBack + 2, 20_000, 'two more top-up cycles');
    expect(hubStock(hub.dataDir).find((row) => row.id === 'floor')?.allocated).toBe(0);
    const cart = await terminal.engine.request('POST', '/carts', {
      body: { items: [{ occurrenceId: ALLOC.occurrenceId, inventoryItemId: 'floor', priceOptionId: ALLOC.floor.priceOptionId, quantity: 2 }] },
    });
    expect(cart.status).toBe(201);
    const refused = await terminal.engine.request('POST', '/sync/holdings/give-back', { body: { occurrenceId: 7 } });
    expect(refused.status).toBe(400);
  }, 60_000);

  it('the show goes off sale at the hub: the terminal gives its places back', async () => {
    const { hub, catalogPath, remove } = await startHub({ floor: 40, seats: 1 });
    cleanup.push(remove, () => hub.close());
    const terminal = await startTerminal(hub, catalogPath, 22, {});
    cleanup.push(() => terminal.close());
    await waitForSellable(terminal.engine, 'floor', (n) => n === 10, 15_000);
    expect((await hub.request('PUT', '/catalog', { body: allocationCatalog({ floor: 40, seats: 1, onSale: false }) })).status).toBe(200);
    // The terminal notices at its next catalog pull (every minute by default), then gives back at its next top-up.
    await waitUntil(() => hubStock(hub.dataDir).find((row) => row.id === 'floor')?.allocated === 0, 75_000, 'the places to come back');
    await waitUntil(async () => (await holdingOf(terminal.engine, 'floor'))?.inHand === 0, 5_000, 'the terminal to count its hand empty');
  }, 100_000);
});
