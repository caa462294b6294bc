import { EngineError } from '../domain/errors';
import type { Clock, Storage } from '../shared/context';

/**
 * GET /occurrences/{id}/availability: the live numbers of a seat map without its static part — per-area sums
 * and per-item availability, all of them or (with `since`) only those changed after an earlier answer's
 * `version`. Timed-out carts are released first, as for the inventory. Answered as JSON text in the shape
 * of AvailabilityView (contract/catalog.ts): SQLite writes the item arrays, which for 100,000 seats is many
 * times faster than building and serializing them in JavaScript.
 */
export async function occurrenceAvailabilityJson(ctx: Storage & Clock, occurrenceId: string, since: string | undefined): Promise<string> {
  const now = ctx.now();
  return ctx.store.transaction(async (tx) => {
    const stock = tx.stock;
    if (!(await tx.catalog.occurrence(occurrenceId))) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'occurrenceId' });
    await tx.carts.releaseExpired(now);
    await tx.allocations.lapse(now);
    const versions = await stock.versions();
    const [catalog, counter] = since === undefined ? [undefined, undefined] : since.split('.').map(Number);
    // A token of another catalog (or from ahead of this database, say after a restore) gets everything.
    const changesOnly = catalog === versions.catalog && counter !== undefined && counter <= versions.stock;
    const items = await stock.changedSince(occurrenceId, changesOnly ? counter : -1);
    const head = JSON.stringify({ occurrenceId, version: `${versions.catalog}.${versions.stock}`, complete: !changesOnly, areas: await stock.areas(occurrenceId) });
    return `{"data":${head.slice(0, -1)},"items":{"ids":${items.ids},"available":${items.available},"held":${items.held}}}}`;
  });
}
