import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEST, startPair, waitForSynced, waitUntil, type SyncPair } from '../sync/harness';
import { createCart, type ItemRequest } from '../helpers/cart-assertions';
import { cash, eur, placeOrder } from '../helpers/orders';
import { closeShift, listShifts, openShift, type Shift } from '../helpers/shifts-contract';
import { readJournal } from '../helpers/journal-contract';

/**
 * Contract §14: "The journal and closed shifts reach the upstream with the orders (exactly once); a hub lists
 * every terminal's shifts under GET /api/v3/shifts?terminal=" — a terminal (kiosk engine) syncing to a hub (a
 * Kassa engine) opens and closes a shift; the hub lists it under `?terminal=all` and under its terminal's id,
 * once, not among its own shifts, and does not journal the orders it imports (they are in the terminal's journal).
 */

type TerminalShift = Shift & { terminal: string };

let pair: SyncPair;
let shift: Shift;
let closed: Shift;
const adult: ItemRequest = { occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.field.inventoryItemId, priceOptionId: FEST.field.adult, quantity: 1 };

beforeAll(async () => {
  // a hub as shipped (it grants allocations): the terminal's orders reach it through POST /orders/import
  pair = await startPair({ proxy: { seed: 25 }, upstream: { allocations: true }, kiosk: { offlineSales: false } });
});
afterAll(async () => {
  await pair.close();
});

const terminalShifts = async (query: string): Promise<TerminalShift[]> => {
  const response = await listShifts(pair.upstream, query);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as TerminalShift[];
};

describe('§14 a terminal’s closed shift at its hub', () => {
  it('a terminal opens a shift, sells cash and closes it; its orders reach the hub', async () => {
    shift = await openShift(pair.kiosk, eur(5000));
    for (let i = 0; i < 2; i++) {
      const cart = await createCart(pair.kiosk, [adult]);
      await placeOrder(pair.kiosk, cart.id, cart.total, cash());
    }
    closed = await closeShift(pair.kiosk, shift.id, eur(12000));
    await waitForSynced(pair.kiosk, 20_000);
  });

  it('the hub lists it under ?terminal=all, with its terminal, zNumber and closing figures, exactly once', async () => {
    await waitUntil(async () => (await terminalShifts('?terminal=all')).some((listed) => listed.status === 'closed'), 20_000, 'the closed shift at the hub');
    const listed = await terminalShifts('?terminal=all');
    expect(listed).toHaveLength(1);
    const [atHub] = listed;
    expect(atHub).toMatchObject({ number: shift.number, status: 'closed', zNumber: closed.zNumber, expected: closed.expected, counted: eur(12000), difference: closed.difference });
    expect(typeof atHub?.terminal).toBe('string');
    expect(await terminalShifts(`?terminal=${encodeURIComponent(atHub?.terminal ?? '')}`)).toEqual(listed);
  });

  it('the hub’s own shifts (no terminal parameter) do not include it', async () => {
    expect(await terminalShifts('')).toEqual([]);
  });

  it('still once after more syncing', async () => {
    const cart = await createCart(pair.kiosk, [adult]);
    await placeOrder(pair.kiosk, cart.id, cart.total, cash());
    await waitForSynced(pair.kiosk, 20_000);
    expect(await terminalShifts('?terminal=all')).toHaveLength(1);
  });

  it('the hub journals none of the orders it imported (the shared design: they are in the terminal’s journal)', async () => {
    expect(pair.proxy.counters.byRoute['relayed POST /orders/import'], JSON.stringify(pair.proxy.counters.byRoute)).toBeGreaterThan(0);
    const hubJournal = await readJournal(pair.upstream);
    expect(hubJournal.filter((entry) => entry.kind === 'order')).toEqual([]);
  });
});
