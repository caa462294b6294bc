import { describe, expect, it } from 'vitest';
import { redeemableCode } from '../../../engine/checkout/codes';
import { fillRandom, randomBytesFromPool } from '../../../engine/shared/random-pool';

describe('the pool of random bytes behind ids and codes', () => {
  it('hands out fresh bytes across many refills: 100,000 draws of 16 bytes (390 pools) are all different', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(randomBytesFromPool(16).toString('hex'));
    expect(seen.size).toBe(100_000);
  });

  it('draws look uniform: each bit of 200,000 bytes is set about half the time', () => {
    const counts = new Array<number>(8).fill(0);
    const draws = 10_000;
    for (let i = 0; i < draws; i++) {
      for (const byte of randomBytesFromPool(20)) for (let bit = 0; bit < 8; bit++) counts[bit] = (counts[bit] ?? 0) + ((byte >> bit) & 1);
    }
    // binomial(200,000, ½): σ ≈ 224, so ±2,000 is ~9σ — fails only if the bytes are not random
    for (const count of counts) expect(Math.abs(count - draws * 10)).toBeLessThan(2_000);
  });

  it('fills into a target at an offset and refuses more than 256 bytes', () => {
    const target = new Uint8Array(40);
    fillRandom(target, 8, 32);
    expect(target.subarray(0, 8).every((byte) => byte === 0)).toBe(true);
    expect(target.subarray(8).some((byte) => byte !== 0)).toBe(true);
    expect(() => randomBytesFromPool(257)).toThrow(RangeError);
  });

  it('gift card codes: 20 characters of Crockford base32, 10,000 of them all different', () => {
    const codes = new Set(Array.from({ length: 10_000 }, () => redeemableCode()));
    expect(codes.size).toBe(10_000);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{20}$/);
  });
});
