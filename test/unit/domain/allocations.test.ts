import { describe, expect, it } from 'vitest';
import { onDemandRequest, overCapacity, placesLeft, planCartTake, planChange, sellableFromHand, topUpChange } from '../../../engine/domain/allocations';
import { EngineError } from '../../../engine/domain/errors';

/** The arithmetic of contract §10, alone: sold + held + allocated ≤ capacity. */

const stock = (over: Partial<{ capacity: number; held: number; sold: number; allocated: number }> = {}) => ({ capacity: 20, held: 3, sold: 5, allocated: 4, ...over });

describe('allocations arithmetic', () => {
  it('leaves for everyone what is neither sold, held nor allocated', () => {
    expect(placesLeft(stock())).toBe(8);
    expect(placesLeft(stock({ capacity: 10 }))).toBe(0);
    expect(overCapacity(stock({ capacity: 10 }))).toBe(2);
    expect(overCapacity(stock())).toBe(0);
  });

  it('grants up to what is left; all or nothing below a minimum', () => {
    expect(planChange(stock(), 2, { change: 5 }, 'c')).toEqual({ applied: 5, quantity: 7 });
    expect(planChange(stock(), 2, { change: 12 }, 'c')).toEqual({ applied: 8, quantity: 10 });
    expect(planChange(stock(), 2, { change: 12, minimum: 8 }, 'c')).toEqual({ applied: 8, quantity: 10 });
    const refused = (() => {
      try {
        planChange(stock(), 2, { change: 12, minimum: 9 }, 'changes[0]');
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(EngineError);
    expect(refused).toMatchObject({ code: 'INVENTORY_EXHAUSTED', param: 'changes[0].minimum', details: { availableQuantity: 10, requestedQuantity: 11 } });
    expect(() => planChange(stock(), 0, { change: 1, minimum: 2 }, 'c')).toThrow(EngineError);
  });

  it('gives back at most what is held', () => {
    expect(planChange(stock(), 4, { change: -3 }, 'c')).toEqual({ applied: -3, quantity: 1 });
    expect(planChange(stock(), 4, { change: -30 }, 'c')).toEqual({ applied: -4, quantity: 0 });
  });

  it("a terminal's cart takes its allocation first, then what is left", () => {
    expect(planCartTake(stock(), 4, 3)).toEqual({ fromAllocation: 3, fromLeft: 0 });
    expect(planCartTake(stock(), 4, 12)).toEqual({ fromAllocation: 4, fromLeft: 8 });
    expect(() => planCartTake(stock(), 4, 13)).toThrow(EngineError);
  });

  it('a terminal sells its hand less its carts, nothing once lapsed; asks for the shortfall topped up', () => {
    expect(sellableFromHand(10, 3, 2000, 1000)).toBe(7);
    expect(sellableFromHand(10, 3, 1000, 1000)).toBe(0);
    expect(onDemandRequest(5, 7, 10)).toBeUndefined();
    expect(onDemandRequest(12, 7, 10)).toEqual({ change: 15, minimum: 5, forSale: 5 });
    expect(onDemandRequest(1, 0, 0)).toEqual({ change: 1, minimum: 1, forSale: 1 });
  });

  it('a top-up keeps the usual amount free in hand; more than twice that goes back down to it', () => {
    expect(topUpChange(3, 10)).toBe(7);
    expect(topUpChange(10, 10)).toBe(0);
    expect(topUpChange(20, 10)).toBe(0);
    // a group's places granted for a sale that did not happen (30 for sale + 10 to keep)
    expect(topUpChange(40, 10)).toBe(-30);
    expect(topUpChange(4, 0)).toBe(-4);
  });

  it('the cap bounds what a terminal keeps in hand, never the shortfall of a sale in progress', () => {
    const room = { capacity: 100, held: 0, sold: 0, allocated: 10 };
    // holding 10 of a cap of 25: a plain grant stops at the cap
    expect(planChange(room, 10, { change: 90 }, 'c', 25)).toEqual({ applied: 15, quantity: 25 });
    // a group of 30: 20 for the sale (beyond the cap) and the usual 10 to keep (within it)
    expect(planChange(room, 10, { change: 30, minimum: 20, forSale: 20 }, 'c', 25)).toEqual({ applied: 30, quantity: 40 });
    // at the cap already: the sale's part only
    expect(planChange(room, 25, { change: 30, minimum: 20, forSale: 20 }, 'c', 25)).toEqual({ applied: 20, quantity: 45 });
    // never more than the venue has left
    expect(planChange({ ...room, sold: 85 }, 10, { change: 30, minimum: 5, forSale: 20 }, 'c', 25)).toEqual({ applied: 5, quantity: 15 });
    expect(() => planChange(room, 10, { change: 5, forSale: 6 }, 'c', 25)).toThrow(EngineError);
  });

  it('a refusal by the cap alone says so, with the cap', () => {
    const room = { capacity: 100, held: 0, sold: 0, allocated: 10 };
    expect(() => planChange(room, 10, { change: 30, minimum: 20 }, 'c', 25)).toThrow(
      expect.objectContaining({ code: 'INVENTORY_EXHAUSTED', details: { availableQuantity: 25, requestedQuantity: 30, allocated: 10, reason: 'allocation_cap', allocationCap: 25 } }),
    );
    // the venue itself is short: no cap reason
    expect(() => planChange({ ...room, sold: 85 }, 10, { change: 30, minimum: 20 }, 'c', 25)).toThrow(
      expect.objectContaining({ details: { availableQuantity: 15, requestedQuantity: 30, allocated: 10 } }),
    );
  });
});
