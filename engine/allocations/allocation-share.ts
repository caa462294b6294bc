import { planCartTake, sellableFromHand } from '../domain/allocations';
import type { InventoryFacts } from '../domain/cart-rules';
import type { Repos } from '../store/port';
import type { Syncing, TerminalRole } from '../shared/context';

/**
 * At a hub, a cart made by a terminal (its API key) takes places out of that terminal's allocation first:
 * the terminal may put into a cart what is left for everyone plus what it holds, and the places it holds are
 * used up in the same transaction. So an order sold from an allocation never meets INVENTORY_EXHAUSTED.
 */

/** The inventory facts as the terminal sees them: its own allocation counts as available to it. */
export async function withAllocation(tx: Pick<Repos, 'allocations'>, terminalId: string | undefined, occurrenceId: string, inventory: Map<string, InventoryFacts>): Promise<Map<string, InventoryFacts>> {
  if (terminalId === undefined) return inventory;
  const seen = new Map<string, InventoryFacts>();
  for (const [id, facts] of inventory) {
    const held = (await tx.allocations.get(terminalId, occurrenceId, id))?.quantity ?? 0;
    seen.set(id, held > 0 ? { ...facts, available: facts.available + held } : facts);
  }
  return seen;
}

/** Uses up the terminal's allocation for the places a new cart holds (after the plan has been checked). */
export async function consumeAllocation(tx: Pick<Repos, 'allocations'>, terminalId: string | undefined, occurrenceId: string, holds: ReadonlyMap<string, number>): Promise<void> {
  if (terminalId === undefined) return;
  for (const [itemId, requested] of holds) {
    const held = (await tx.allocations.get(terminalId, occurrenceId, itemId))?.quantity ?? 0;
    if (held === 0) continue;
    const stock = await tx.allocations.stock(occurrenceId, itemId);
    if (!stock) continue;
    const { fromAllocation } = planCartTake(stock, held, requested);
    await tx.allocations.consume(terminalId, occurrenceId, itemId, fromAllocation);
  }
}

/**
 * At a terminal whose upstream is a hub: a new cart may take only what this terminal holds and no cart of
 * its own holds yet (its hub grants more before, within the same request, when it can).
 */
export async function limitToHoldings(ctx: Syncing & TerminalRole, tx: Pick<Repos, 'holdings'>, occurrenceId: string, inventory: Map<string, InventoryFacts>, now: number): Promise<Map<string, InventoryFacts>> {
  if (!ctx.syncing || !ctx.terminal.sellsFromHoldings) return inventory;
  const limited = new Map<string, InventoryFacts>();
  for (const [id, facts] of inventory) {
    const row = await tx.holdings.get(occurrenceId, id);
    const sellable = row ? sellableFromHand(row.inHand, row.heldLocally, row.lapsesAt, now) : 0;
    limited.set(id, { ...facts, available: Math.min(facts.available, sellable) });
  }
  return limited;
}

/**
 * At a terminal of a hub, the inventory's `available` is what this till can sell now: its places in hand that
 * no cart holds, plus — online — what the venue had left when last seen (a cart asks the hub for those).
 */
export async function sellableHere(ctx: Syncing & TerminalRole, repos: Pick<Repos, 'holdings'>, occurrenceId: string, now: number): Promise<(itemId: string, available: number) => number> {
  if (!ctx.syncing || !ctx.terminal.sellsFromHoldings) return (_itemId, available) => available;
  // a terminal's holdings are a few rows per show: read once, not once per seat
  const rows = new Map((await repos.holdings.all()).filter((row) => row.occurrenceId === occurrenceId).map((row) => [row.inventoryItemId, row]));
  const online = ctx.terminal.online;
  return (itemId, available) => {
    const row = rows.get(itemId);
    const inHand = row ? sellableFromHand(row.inHand, row.heldLocally, row.lapsesAt, now) : 0;
    const venue = online ? (row?.venueAvailable ?? 0) : 0;
    return Math.min(available, inHand + venue);
  };
}
