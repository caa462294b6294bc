import { EngineError } from './errors';

/**
 * The arithmetic of allocations (contract §10), in one place. For every inventory item, at every moment:
 *
 *     sold + held in carts + allocated to terminals ≤ capacity
 *
 * and an assigned seat (capacity 1) is therefore sold at most once. Places allocated to a terminal leave
 * `available` at once; the terminal's own carts at the hub take from its allocation before anything else,
 * so an order sold from an allocation never meets INVENTORY_EXHAUSTED.
 */

export interface Stock {
  readonly capacity: number;
  readonly held: number;
  readonly sold: number;
  readonly allocated: number;
}

/** What anyone without an allocation may still take. */
export function placesLeft(stock: Stock): number {
  return Math.max(0, stock.capacity - stock.held - stock.sold - stock.allocated);
}

/** The invariant; answers the excess (0 when it holds). */
export function overCapacity(stock: Stock): number {
  return Math.max(0, stock.held + stock.sold + stock.allocated - stock.capacity);
}

export interface ChangeRequest {
  /** places to add (> 0) or give back (< 0) */
  readonly change: number;
  /** for a grant: fewer than this and nothing is granted (default 0: as many as there are, up to `change`) */
  readonly minimum?: number;
  /** for a grant: the part of `change` a sale in progress needs (its shortfall); granted beyond the cap */
  readonly forSale?: number;
}

export interface ChangeOutcome {
  /** what was actually added or given back (negative) */
  readonly applied: number;
  /** the terminal's allocation afterwards */
  readonly quantity: number;
}

/**
 * The most of one item one terminal may hold at a hub (`--allocation-cap`): a share of the item's capacity,
 * rounded up, but never fewer than `floor` places (or the capacity, when smaller), or a fixed number of places.
 */
export type AllocationCap = { readonly percent: number; readonly floor: number } | { readonly places: number };

/**
 * The default: a quarter of each item, at least 10 places. With three tills no one of them can hoard the house
 * (three together still leave a quarter to the others and the web), while a till keeps its usual 10 in hand
 * (a terminal's default --allocation) on a small room too. The cap bounds what a terminal KEEPS IN HAND: a
 * background top-up and the keep-in-hand part of an on-demand request. The shortfall of a sale in progress
 * (`forSale`) is granted beyond it, up to what the venue has left, so one till can sell a school group of any
 * size the house still has; places a till sells leave its allocation, and its next top-up gives back what it
 * holds beyond its usual amount. The cap limits what a terminal holds at once, never what it sells.
 */
export const DEFAULT_ALLOCATION_CAP_FLOOR = 10;
export const DEFAULT_ALLOCATION_CAP: AllocationCap = { percent: 25, floor: DEFAULT_ALLOCATION_CAP_FLOOR };

export function capFor(cap: AllocationCap, capacity: number): number {
  if ('places' in cap) return Math.min(cap.places, capacity);
  return Math.min(capacity, Math.max(Math.ceil((capacity * cap.percent) / 100), cap.floor));
}

/**
 * One change of one terminal's allocation of one item, given the item's stock and what the terminal holds.
 * A grant takes at most what is left. Its `forSale` part (a sale in progress) is granted first, up to what is
 * left; the rest only up to `cap` in the terminal's hands, counting what it held before. All or nothing below
 * `minimum`: 409 INVENTORY_EXHAUSTED with what the terminal could have (`reason: 'allocation_cap'` and the cap
 * when the venue had the places and only the cap refused). A give-back returns at most what the terminal holds.
 */
export function planChange(stock: Stock, holding: number, request: ChangeRequest, param: string, cap: number = Number.POSITIVE_INFINITY): ChangeOutcome {
  if (request.change >= 0) {
    const minimum = request.minimum ?? 0;
    const forSale = request.forSale ?? 0;
    if (minimum > request.change) throw new EngineError('INVALID_FIELD_VALUE', { param: `${param}.minimum`, details: { reason: 'minimum_above_change' } });
    if (forSale > request.change) throw new EngineError('INVALID_FIELD_VALUE', { param: `${param}.forSale`, details: { reason: 'for_sale_above_change' } });
    const venueLeft = placesLeft(stock);
    const sale = Math.min(forSale, venueLeft);
    const keep = Math.min(request.change - forSale, venueLeft - sale, Math.max(0, cap - holding));
    const left = sale + keep;
    if (left < minimum) {
      const capped = Math.min(request.change, venueLeft) >= minimum;
      throw new EngineError('INVENTORY_EXHAUSTED', {
        param: `${param}.minimum`,
        details: {
          availableQuantity: holding + left,
          requestedQuantity: holding + minimum,
          allocated: holding,
          ...(capped && { reason: 'allocation_cap', allocationCap: cap }),
        },
      });
    }
    return { applied: left, quantity: holding + left };
  }
  const applied = -Math.min(-request.change, holding);
  return { applied, quantity: holding + applied };
}

/**
 * A cart at the hub created by a terminal: how much of `requested` comes out of the terminal's allocation
 * and how much out of what is left for everyone; INVENTORY_EXHAUSTED when both together fall short.
 */
export function planCartTake(stock: Stock, holding: number, requested: number): { fromAllocation: number; fromLeft: number } {
  const fromAllocation = Math.min(holding, requested);
  const fromLeft = requested - fromAllocation;
  const left = placesLeft(stock);
  if (fromLeft > left) {
    throw new EngineError('INVENTORY_EXHAUSTED', { details: { availableQuantity: holding + left, requestedQuantity: requested } });
  }
  return { fromAllocation, fromLeft };
}

/**
 * At a terminal: what it may put into a new cart now. Its places in hand, less those its own carts hold,
 * and nothing once the hub's lapse deadline has passed.
 */
export function sellableFromHand(inHand: number, heldLocally: number, lapsesAt: number, now: number): number {
  if (lapsesAt <= now) return 0;
  return Math.max(0, inHand - heldLocally);
}

/**
 * What a terminal asks for when a cart needs more than it has: the shortfall, for the sale in progress (so
 * beyond the hub's cap), topped up to the usual amount (within it).
 */
export function onDemandRequest(needed: number, sellable: number, keepInHand: number): ChangeRequest | undefined {
  const shortfall = needed - sellable;
  if (shortfall <= 0) return undefined;
  return { change: shortfall + keepInHand, minimum: shortfall, forSale: shortfall };
}

/**
 * A background top-up, from the places free in hand: how many to ask for (positive) to keep `target` in hand,
 * or give back (negative) down to `target` once more than twice that is free — e.g. a group's places granted
 * for a sale that did not happen. 0: leave it.
 */
export function topUpChange(free: number, target: number): number {
  if (free < target || free > 2 * target) return target - free;
  return 0;
}
