import { describe, expect, it } from 'vitest';
import { capFor, DEFAULT_ALLOCATION_CAP, planChange } from '../../../engine/domain/allocations';
import { EngineError } from '../../../engine/domain/errors';
import { ROLE_SCOPES, seesOrder, usesCart } from '../../../engine/domain/scopes';

/** Ownership and roles (issue #22), and the hub's cap per terminal, as pure rules. */
describe('who sees what', () => {
  const till = { keyId: 'key_a', owner: 'key_a', scopes: ['orders:read', 'orders:write'] };
  it('a key sees its own orders; orders:any and admin every order; an order of no key only those', () => {
    expect(seesOrder(till, 'key_a')).toBe(true);
    expect(seesOrder(till, 'key_b')).toBe(false);
    expect(seesOrder(till, null)).toBe(false);
    expect(seesOrder({ ...till, scopes: ['orders:any'] }, 'key_b')).toBe(true);
    expect(seesOrder({ ...till, scopes: ['admin'] }, null)).toBe(true);
  });
  it('a key uses its own carts and those of no key (the v1 facade); admin every cart; orders:any no other cart', () => {
    expect(usesCart(till, 'key_a')).toBe(true);
    expect(usesCart(till, null)).toBe(true);
    expect(usesCart(till, 'key_b')).toBe(false);
    expect(usesCart({ ...till, scopes: ['orders:any'] }, 'key_b')).toBe(false);
    expect(usesCart({ ...till, scopes: ['admin'] }, 'key_b')).toBe(true);
  });
  it('the kiosk takes no cash, cancels and lists nothing; the box office never has admin or catalog:write', () => {
    expect(ROLE_SCOPES.kiosk).not.toContain('orders:write');
    expect(ROLE_SCOPES.kiosk).not.toContain('orders:read');
    expect(ROLE_SCOPES.kiosk).not.toContain('sync');
    expect(ROLE_SCOPES.boxOffice).not.toContain('admin');
    expect(ROLE_SCOPES.boxOffice).not.toContain('catalog:write');
    expect(ROLE_SCOPES.boxOffice).toContain('orders:any');
  });
});

describe('the cap per terminal', () => {
  it('is 25 % of the capacity rounded up, at least 10 places, never more than the capacity', () => {
    expect([1, 4, 20, 40, 41, 120, 200, 20_000].map((capacity) => capFor(DEFAULT_ALLOCATION_CAP, capacity))).toEqual([1, 4, 10, 10, 11, 30, 50, 5000]);
    expect(capFor({ places: 3 }, 200)).toBe(3);
    expect(capFor({ places: 300 }, 200)).toBe(200);
  });
  it('grants up to the cap; below a minimum it grants nothing (409 with what the terminal could hold); give-backs are never capped', () => {
    const stock = { capacity: 200, held: 0, sold: 0, allocated: 40 };
    expect(planChange(stock, 40, { change: 100 }, 'changes[0]', 50)).toEqual({ applied: 10, quantity: 50 });
    expect(planChange(stock, 60, { change: 5 }, 'changes[0]', 50)).toEqual({ applied: 0, quantity: 60 });
    expect(() => planChange(stock, 40, { change: 20, minimum: 11 }, 'changes[0]', 50)).toThrow(EngineError);
    try {
      planChange(stock, 40, { change: 20, minimum: 11 }, 'changes[0]', 50);
    } catch (error) {
      expect(error instanceof EngineError && error.details).toEqual({ availableQuantity: 50, requestedQuantity: 51, allocated: 40, reason: 'allocation_cap', allocationCap: 50 });
    }
    expect(planChange(stock, 60, { change: -30 }, 'changes[0]', 50)).toEqual({ applied: -30, quantity: 30 });
  });
});
