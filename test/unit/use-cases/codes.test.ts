import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ticketCode } from '../../../engine/checkout/codes';

const CODE = /^[0-9A-HJKMNP-TV-Z]{20}$/;
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

describe('ticket codes (engine/checkout/codes.ts)', () => {
  it('are 20 characters of Crockford base32; 10,000 for one show are all different', () => {
    const codes = new Set(Array.from({ length: 10_000 }, () => ticketCode('brass-2027-03-12')));
    expect(codes.size).toBe(10_000);
    for (const code of codes) expect(code).toMatch(CODE);
  });

  it('begin with two characters named by the show: the first 10 bits of the SHA-256 of its occurrence id', () => {
    for (const occurrenceId of ['brass-2027-03-12', 'seats-100k', 'flash-20k', 'ö-unicode-show']) {
      const digest = createHash('sha256').update(occurrenceId).digest();
      const bits = ((digest[0] ?? 0) << 2) | ((digest[1] ?? 0) >> 6);
      const prefix = `${ALPHABET[bits >> 5] ?? ''}${ALPHABET[bits & 31] ?? ''}`;
      for (let i = 0; i < 50; i++) expect(ticketCode(occurrenceId).slice(0, 2)).toBe(prefix);
    }
  });

  it('spread their shows over the prefixes: 2,000 shows take several hundred of the 1,024', () => {
    const prefixes = new Set(Array.from({ length: 2_000 }, (_, i) => ticketCode(`show-${i}`).slice(0, 2)));
    // 2,000 draws into 1,024 buckets fill ~880 on average; a constant or narrow prefix would fill a handful
    expect(prefixes.size).toBeGreaterThan(700);
  });

  it('keep 90 random bits after the prefix: every character of the other 18 is uniform over the alphabet', () => {
    const counts = Array.from({ length: 18 }, () => new Array<number>(32).fill(0));
    const draws = 32_000;
    for (let i = 0; i < draws; i++) {
      const rest = ticketCode('brass-2027-03-12').slice(2);
      for (let at = 0; at < 18; at++) {
        const row = counts[at];
        const symbol = ALPHABET.indexOf(rest[at] ?? '');
        if (row) row[symbol] = (row[symbol] ?? 0) + 1;
      }
    }
    // each count is binomial(32,000, 1/32): mean 1,000, σ ≈ 31; ±250 is 8σ — fails only if a character is not random
    for (const row of counts) for (const count of row) expect(Math.abs(count - 1_000)).toBeLessThan(250);
  });
});
