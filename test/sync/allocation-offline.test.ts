import { afterEach, describe, expect, it } from 'vitest';
import { ALLOC } from '../fixtures/allocation-catalog';
import type { ErrorEnvelope, TestEngine } from '../helpers/engine';
import { checkout, expectInvariant, holdingOf, hubStock, sellAt, startHub, startTerminal, waitForSellable, type Terminal } from './allocation-helpers';
import { expectArrivedExactlyOnce, waitForSynced, waitUntil, type Order } from './harness';

/**
 * Contract §10: a terminal of a hub, at the shipped defaults (10 places kept in hand, top-up every 5 s), cut
 * off from its hub in the middle of a sale: it finishes the sale, sells exactly what it held, then answers
 * 409 INVENTORY_EXHAUSTED with what it still holds; back online every order arrives once, with no conflict.
 */

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('a terminal cut off from its hub', () => {
  it('sells at most what it held, then 409 with availableQuantity; after reconnecting every order arrives with zero conflicts', async () => {
    const { hub, catalogPath, remove } = await startHub({ floor: 200, seats: 4 });
    cleanup.push(remove, () => hub.close());
    const terminal: Terminal = await startTerminal(hub, catalogPath, 11);
    cleanup.push(() => terminal.close());
    const till: TestEngine = terminal.engine;
    const floor = ALLOC.floor.inventoryItemId;

    // Online: the background top-up keeps 10 in hand; a cart of 15 asks the hub for the rest within its request.
    expect(await waitForSellable(till, floor, (n) => n === 10, 15_000)).toBe(10);
    // Online it offers what it holds plus what the venue has left (a cart asks the hub for those).
    expect((await holdingOf(till, floor))?.venueAvailable).toBe(190);
    const orders: Order[] = [];
    const big = await sellAt(till, floor, 15);
    if (!('order' in big)) throw new Error(`online sale of 15 refused: ${JSON.stringify(big.refusal.body)}`);
    orders.push(big.order);
    expect(hubStock(hub.dataDir).find((row) => row.id === floor)?.allocated).toBeGreaterThanOrEqual(15);

    // Mid-sale: the cart is made online, the line goes down, the checkout still completes (the places are held here).
    const held = await waitForSellable(till, floor, (n) => n >= 3, 15_000);
    const cart = await till.request<{ data: { id: string; total: { amount: number; currency: string } } }>('POST', '/carts', {
      body: { items: [{ occurrenceId: ALLOC.occurrenceId, inventoryItemId: floor, priceOptionId: ALLOC.floor.priceOptionId, quantity: 2 }] },
    });
    expect(cart.status).toBe(201);
    terminal.proxy.setDown(true);
    orders.push(await checkout(till, cart.body.data.id, cart.body.data.total));
    const hubBefore = hubStock(hub.dataDir).find((row) => row.id === floor);

    // Offline: exactly what is in hand, one place at a time; asking for 2 with 1 left says 1.
    let left = (await holdingOf(till, floor))?.sellable ?? 0;
    expect(left).toBe(held - 2);
    // What the till offers is what it can sell: offline, its hand and nothing more (a kiosk never offers more).
    const offered = async (itemId: string) =>
      (await till.request<{ data: { areas: { inventoryItems: { id: string; available: number }[] }[] } }>('GET', `/occurrences/${ALLOC.occurrenceId}/inventory`)).body.data.areas
        .flatMap((area) => area.inventoryItems)
        .find((item) => item.id === itemId)?.available;
    await waitUntil(async () => (await offered(floor)) === left, 10_000, 'the till to offer only its hand');
    expect(await offered('S1')).toBe(0);
    while (left > 1) {
      const sale = await sellAt(till, floor, 1);
      if (!('order' in sale)) throw new Error(`offline sale refused with ${left} in hand: ${JSON.stringify(sale.refusal.body)}`);
      orders.push(sale.order);
      left--;
    }
    const two = await sellAt(till, floor, 2);
    expect('refusal' in two && two.refusal.status).toBe(409);
    if ('refusal' in two) {
      expect(two.refusal.body.error).toMatchObject({ code: 'INVENTORY_EXHAUSTED', param: 'items[0].quantity' });
      expect(two.refusal.body.error.details).toMatchObject({ availableQuantity: 1, requestedQuantity: 2 });
    }
    const last = await sellAt(till, floor, 1);
    if (!('order' in last)) throw new Error('the last place in hand was refused');
    orders.push(last.order);
    const none = await sellAt(till, floor, 1);
    expect('refusal' in none && none.refusal.status).toBe(409);
    if ('refusal' in none) expect((none.refusal.body as ErrorEnvelope).error.details).toMatchObject({ availableQuantity: 0 });
    // A seat it does not hold cannot be sold offline either.
    const seat = await sellAt(till, 'S1', 1);
    expect('refusal' in seat && seat.refusal.status).toBe(409);

    // The hub did not move meanwhile: nothing reached it, nothing was oversold.
    expect(hubStock(hub.dataDir).find((row) => row.id === floor)).toEqual(hubBefore);

    terminal.proxy.setDown(false);
    const status = await waitForSynced(till, 30_000);
    expect(status.conflicts).toEqual([]);
    await expectArrivedExactlyOnce(hub, orders);
    const sold = orders.reduce((n, order) => n + order.tickets.length, 0);
    expect(hubStock(hub.dataDir).find((row) => row.id === floor)?.sold).toBe(sold);
    expectInvariant(hub.dataDir);
    // Back online it tops up again.
    await waitForSellable(till, floor, (n) => n >= 10, 20_000).catch(async (error: unknown) => {
      throw new Error(`${String(error)}; holding ${JSON.stringify(await holdingOf(till, floor))}; proxy ${JSON.stringify(terminal.proxy.counters.byRoute)}`);
    });
  }, 90_000);
});
