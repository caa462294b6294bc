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
    expect(onDemandRequest(12, 7, 10)).toEqual({ change: 15, minimum: 5 });
    expect(onDemandRequest(1, 0, 0)).toEqual({ change: 1, minimum: 1 });
    expect(topUpChange(3, 10)).toBe(7);
  });
});
