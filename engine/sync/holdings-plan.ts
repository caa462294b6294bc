import { onDemandRequest, sellableFromHand, topUpChange } from '../domain/allocations';
import type { AllocationChange } from '../contract/allocation';
import type { Repos } from '../store/port';

/** Which allocation changes a terminal asks its hub for (contract §10), from its counts in hand. */

export interface Need {
  readonly occurrenceId: string;
  readonly inventoryItemId: string;
  readonly quantity: number;
}

/** A cart that needs more than is in hand: the shortfall of each item (a seat: the seat), topped up to the usual amount. */
export async function onDemandChanges(repos: Pick<Repos, 'holdings' | 'catalog'>, needs: readonly Need[], keepInHand: number, now: number): Promise<AllocationChange[]> {
  const wanted = new Map<string, Need>();
  for (const need of needs) {
    const id = `${need.occurrenceId}\n${need.inventoryItemId}`;
    wanted.set(id, { ...need, quantity: (wanted.get(id)?.quantity ?? 0) + need.quantity });
  }
  const changes: AllocationChange[] = [];
  for (const need of wanted.values()) {
    const row = await repos.holdings.get(need.occurrenceId, need.inventoryItemId);
    const sellable = row ? sellableFromHand(row.inHand, row.heldLocally, row.lapsesAt, now) : 0;
    // Enough in hand, the usual case of every sale: nothing to ask, and no catalog read on the sale's path.
    if (sellable >= need.quantity) continue;
    const seating = row?.seating ?? (await repos.catalog.inventory(need.occurrenceId, [need.inventoryItemId])).get(need.inventoryItemId)?.seating;
    const request = onDemandRequest(need.quantity, sellable, seating === 'assigned' ? 0 : keepInHand);
    if (request) changes.push({ occurrenceId: need.occurrenceId, inventoryItemId: need.inventoryItemId, ...request });
  }
  return changes;
}

/**
 * The background top-up: `keepInHand` free places of each general item of each on-sale occurrence (a surplus
 * over twice that goes back); everything free of an occurrence off sale, and every seat no cart holds, goes back.
 */
export async function backgroundChanges(repos: Pick<Repos, 'holdings' | 'catalog'>, keepInHand: number, now: number, givenBack: ReadonlySet<string> = new Set()): Promise<AllocationChange[]> {
  const changes: AllocationChange[] = [];
  const onSale = new Set((await repos.catalog.allOccurrences()).filter((o) => o.onSale === 1).map((o) => o.id));
  const rows = new Map((await repos.holdings.all()).map((row) => [`${row.occurrenceId}\n${row.inventoryItemId}`, row]));
  for (const occurrenceId of onSale) {
    // Staff gave this show's places back: no top-up (a sale still asks the hub within its request).
    if (givenBack.has(occurrenceId)) continue;
    const general = new Set((await repos.catalog.areas(occurrenceId)).filter((area) => area.seating === 'general').map((area) => area.id));
    for (const item of await repos.catalog.items(occurrenceId)) {
      if (!general.has(item.areaId)) continue;
      const row = rows.get(`${occurrenceId}\n${item.id}`);
      const free = row ? sellableFromHand(row.inHand, row.heldLocally, row.lapsesAt, now) : 0;
      // A holding past its lapse deadline is asked for again in full: the hub may have taken it back.
      const change = topUpChange(free, keepInHand);
      if (change !== 0) changes.push({ occurrenceId, inventoryItemId: item.id, change });
    }
  }
  for (const row of rows.values()) {
    const free = Math.max(0, row.inHand - row.heldLocally);
    if (free === 0) continue;
    if (!onSale.has(row.occurrenceId) || row.seating === 'assigned') changes.push({ occurrenceId: row.occurrenceId, inventoryItemId: row.inventoryItemId, change: -free });
  }
  return changes;
}

/** Everything in hand that no cart holds, of one occurrence or of all. */
export async function giveBackChanges(repos: Pick<Repos, 'holdings'>, occurrenceId: string | undefined): Promise<AllocationChange[]> {
  return (await repos.holdings.all())
    .filter((row) => occurrenceId === undefined || row.occurrenceId === occurrenceId)
    .map((row) => ({ occurrenceId: row.occurrenceId, inventoryItemId: row.inventoryItemId, change: -Math.max(0, row.inHand - row.heldLocally) }))
    .filter((change) => change.change < 0);
}
