import { describe, expect, it } from 'vitest';
import { timeOrderedId, uuidV7 } from '../../../engine/shared/ids';

describe('time-ordered internal keys', () => {
  it('timeOrderedId: 26 characters of Crockford base32, sorting by time whatever the random part', () => {
    const ids = [0, 1, 31, 32, 1_700_000_000_000, 1_700_000_000_001, 2 ** 47].map((ms) => timeOrderedId(ms));
    for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(timeOrderedId(1_700_000_000_000).slice(0, 10)).toBe(timeOrderedId(1_700_000_000_000).slice(0, 10));
  });

  it('timeOrderedId: ids of one millisecond differ (80 random bits)', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => timeOrderedId(1_700_000_000_000)));
    expect(ids.size).toBe(10_000);
  });

  it('uuidV7: RFC 9562 version 7 and variant, hex sorting by time', () => {
    const ids = [1, 1_700_000_000_000, 1_700_000_000_001, 2 ** 47].map((ms) => uuidV7(ms));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(uuidV7(0x0123456789ab).slice(0, 13)).toBe('01234567-89ab');
  });
});
