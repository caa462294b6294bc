import { sellableFromHand } from '../domain/allocations';
import type { Holding, Holdings } from '../contract/holdings';
import type { Clock, Storage } from '../shared/context';

/** What a terminal holds from its hub, per inventory item (GET /sync/holdings, GET /sync/status). */
export async function holdingsView(ctx: Storage & Clock, live: { mode: Holdings['mode']; online: boolean }): Promise<Holdings> {
  return { mode: live.mode, online: live.online, holdings: await holdingRows(ctx) };
}

export async function holdingRows(ctx: Storage & Clock): Promise<Holding[]> {
  const now = ctx.now();
  return (await ctx.store.repos.holdings.all()).map(
    (row): Holding => ({
      occurrenceId: row.occurrenceId,
      inventoryItemId: row.inventoryItemId,
      inHand: row.inHand,
      inCarts: row.heldLocally,
      sellable: sellableFromHand(row.inHand, row.heldLocally, row.lapsesAt, now),
      lapsesAt: row.lapsesAt > 0 ? new Date(row.lapsesAt).toISOString() : null,
      venueAvailable: row.venueAvailable,
      venueSeenAt: row.venueSeenAt === null ? null : new Date(row.venueSeenAt).toISOString(),
    }),
  );
}
