import { describe, expect, it } from 'vitest';
import { decidePresence, normalizeTicketCode, presenceAfter } from '../../../engine/domain/checkin';
import { EngineError } from '../../../engine/domain/errors';

/** The pure rules of a check-in (issue #26, contract §15): reading a typed code, and in/out from where a ticket is. */

const refusal = (run: () => unknown): { code: string; details: unknown } => {
  try {
    run();
  } catch (error) {
    if (error instanceof EngineError) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error('not refused');
};

describe('normalizeTicketCode', () => {
  it('upper-cases, drops spaces and hyphens, reads I and L as 1 and O as 0', () => {
    expect(normalizeTicketCode('0123 4567-89ab-cdef-ghjk')).toBe('0123456789ABCDEFGHJK');
    expect(normalizeTicketCode(' mnpq--rstv wxyz 0000 zzzz\t')).toBe('MNPQRSTVWXYZ0000ZZZZ');
    expect(normalizeTicketCode('oilO ILoi 0000 0000 0000')).toBe('01101101000000000000');
  });

  it.each(['', '0123456789ABCDEFGHJ', '0123456789ABCDEFGHJKM', '0123456789ABCDEFGHJU', '0123456789ABCDEFGH.K', '0123456789ABCDEFGHJ\u0000'])('refuses %j', (text) => {
    expect(normalizeTicketCode(text)).toBeUndefined();
  });
});

describe('decidePresence', () => {
  const inside = { inside: true, inAt: '2027-03-12T19:01:00.000Z', gate: 'B' };
  const outside = { inside: false, inAt: '2027-03-12T19:01:00.000Z', gate: 'B' };

  it('"in": admitted unless inside (ALREADY_CHECKED_IN with when and where)', () => {
    expect(decidePresence(undefined, 'in')).toBe('admitted');
    expect(decidePresence(outside, 'in')).toBe('admitted');
    expect(refusal(() => decidePresence(inside, 'in'))).toEqual({ code: 'ALREADY_CHECKED_IN', details: { at: inside.inAt, gate: 'B' } });
  });

  it('"out": left only when inside (NOT_CHECKED_IN otherwise)', () => {
    expect(decidePresence(inside, 'out')).toBe('left');
    expect(refusal(() => decidePresence(undefined, 'out')).code).toBe('NOT_CHECKED_IN');
    expect(refusal(() => decidePresence(outside, 'out')).code).toBe('NOT_CHECKED_IN');
  });

  it('presence after: an "in" is inside since then at that gate; an "out" keeps the last entry', () => {
    expect(presenceAfter(undefined, 'in', 'T1', 'A')).toEqual({ inside: true, inAt: 'T1', gate: 'A' });
    expect(presenceAfter(inside, 'out', 'T2', 'C')).toEqual({ inside: false, inAt: inside.inAt, gate: 'B' });
  });
});
