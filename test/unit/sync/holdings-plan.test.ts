import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator } from '../../../engine/checkout/payments/simulator';
import { openDatabase } from '../../../engine/store/db';
import { createSqliteStore } from '../../../engine/store/sqlite-store';
import { onDemandChanges } from '../../../engine/sync/holdings-plan';
import { importCatalog } from '../../../engine/catalog/catalog';
import { createContext, type EngineContext } from '../../../engine/shared/context';
import { createCart } from '../../../engine/carts/create-cart';
import { ALLOC, allocationCatalog, seatId } from '../../fixtures/allocation-catalog';

/**
 * What a terminal asks its hub for within a cart's request (contract §10), on a real data file: nothing while
 * its hand covers the cart, else the shortfall — topped up to the usual amount for a general item, the seat
 * alone for an assigned one, whether the terminal ever held it (seating from the catalog) or not.
 */

const KEEP = 10;
const NOW = Date.parse('2027-08-01T12:00:00Z');
const open: { store: { close(): Promise<void> }; dir: string }[] = [];
afterEach(async () => {
  for (const { store, dir } of open.splice(0)) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function terminal(): Promise<EngineContext> {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-plan-'));
  const store = createSqliteStore(openDatabase(dir), { groupCommit: false });
  open.push({ store, dir });
  const simulator = createSimulator(store, { baseUrl: () => 'http://127.0.0.1:1', now: () => NOW });
  const ctx = createContext(store, { holdSeconds: 900, now: () => NOW, payments: simulator.provider, syncing: true });
  await importCatalog(ctx, allocationCatalog({ floor: 500, seats: 4 }));
  ctx.terminal.sellsFromHoldings = true;
  return ctx;
}

async function hold(ctx: EngineContext, itemId: string, inHand: number, lapsesAt = NOW + 3_600_000): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    await tx.holdings.add(ALLOC.occurrenceId, itemId, inHand);
    await tx.holdings.renew(lapsesAt);
  });
}

const need = (inventoryItemId: string, quantity: number) => ({ occurrenceId: ALLOC.occurrenceId, inventoryItemId, quantity });
/** an on-demand change: the shortfall (`minimum`) is for the sale in progress, so granted beyond the hub's cap */
const asked = (inventoryItemId: string, change: number, minimum: number) => ({ occurrenceId: ALLOC.occurrenceId, inventoryItemId, change, minimum, forSale: minimum });
const floor = ALLOC.floor.inventoryItemId;

describe('onDemandChanges', () => {
  it('asks nothing while the places in hand cover the cart, lines of one item added up', async () => {
    const ctx = await terminal();
    await hold(ctx, floor, 5);
    expect(await onDemandChanges(ctx.store.repos, [need(floor, 5)], KEEP, NOW)).toEqual([]);
    expect(await onDemandChanges(ctx.store.repos, [need(floor, 2), need(floor, 3)], KEEP, NOW)).toEqual([]);
    expect(await onDemandChanges(ctx.store.repos, [need(floor, 2), need(floor, 4)], KEEP, NOW)).toEqual([asked(floor, 1 + KEEP, 1)]);
  });

  it('a general item: the shortfall beyond what no cart here holds, topped up to the usual amount', async () => {
    const ctx = await terminal();
    await hold(ctx, floor, 3);
    await createCart(ctx, { items: [{ ...need(floor, 2), priceOptionId: ALLOC.floor.priceOptionId }] });
    // 3 in hand, 2 of them in a cart: 1 sellable, 4 needed
    expect(await onDemandChanges(ctx.store.repos, [need(floor, 4)], KEEP, NOW)).toEqual([asked(floor, 3 + KEEP, 3)]);
  });

  it('never held: a general item asks the usual amount on top, a seat only itself (seating read from the catalog)', async () => {
    const ctx = await terminal();
    expect(await onDemandChanges(ctx.store.repos, [need(floor, 2)], KEEP, NOW)).toEqual([asked(floor, 2 + KEEP, 2)]);
    expect(await onDemandChanges(ctx.store.repos, [need(seatId(0), 1)], KEEP, NOW)).toEqual([asked(seatId(0), 1, 1)]);
  });

  it('a holding past its lapse deadline counts as nothing in hand: the seat alone is asked again', async () => {
    const ctx = await terminal();
    await hold(ctx, seatId(1), 1, NOW - 1);
    await hold(ctx, floor, 50, NOW - 1);
    expect(await onDemandChanges(ctx.store.repos, [need(seatId(1), 1), need(floor, 1)], KEEP, NOW)).toEqual([
      asked(seatId(1), 1, 1),
      asked(floor, 1 + KEEP, 1),
    ]);
  });
});
