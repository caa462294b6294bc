import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from '../../engine/printing/backoff';

describe('the print queue backoff (shipped defaults)', () => {
  it('waits 2 s, then doubles up to 30 s, and stays there', () => {
    expect([1, 2, 3, 4, 5, 6, 50, 10_000].map((failures) => backoffDelay(DEFAULT_BACKOFF, failures))).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000, 30_000]);
  });
});
