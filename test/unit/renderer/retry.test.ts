import { describe, expect, it } from 'vitest';
import { BACKOFF_MS, retryDelay, type Outcome } from '../../../renderer/src/api/retry';

/** The UI's retry rules (spec §7.4, §8; contract §8): which answer is tried again, and after how long. */

const status = (code: number, retryAfter: string | null = null): Outcome => ({ kind: 'status', status: code, retryAfter });
const network: Outcome = { kind: 'network' };

/** The delays a request would see, retry after retry, for the first five retries. */
function schedule(outcome: Outcome, repeatable: boolean): (number | undefined)[] {
  return Array.from({ length: 5 }, (_, retries) => retryDelay(outcome, retries, repeatable));
}

describe('retryDelay: 5xx', () => {
  it('the backoff table is 1 s, 2 s, 4 s', () => {
    expect(BACKOFF_MS).toEqual([1000, 2000, 4000]);
  });

  it.each([500, 502, 504, 599])('%i → 1000, 2000, 4000, then no fourth retry', (code) => {
    expect(schedule(status(code), false)).toEqual([1000, 2000, 4000, undefined, undefined]);
  });

  it('503 (CURRENCY_TEMPORARILY_UNAVAILABLE) follows the same schedule, for writes as for reads', () => {
    expect(schedule(status(503), false)).toEqual([1000, 2000, 4000, undefined, undefined]);
    expect(schedule(status(503), true)).toEqual([1000, 2000, 4000, undefined, undefined]);
  });

  it('a 5xx that carries a Retry-After header still uses the backoff table', () => {
    expect(retryDelay(status(503, '30'), 0, false)).toBe(1000);
    expect(retryDelay(status(503, '30'), 2, false)).toBe(4000);
  });
});

describe('retryDelay: 429 waits for Retry-After (whole seconds, at least 1 s)', () => {
  it.each([
    ['1', 1000],
    ['2', 2000],
    ['7', 7000],
    ['0.2', 1000],
    ['1.5', 2000],
    ['0', 1000],
    ['-3', 1000],
    ['', 1000],
    ['soon', 1000],
    ['Wed, 21 Oct 2015 07:28:00 GMT', 1000],
    ['Infinity', 1000],
  ])('Retry-After %j → %i ms', (header, delay) => {
    expect(retryDelay(status(429, header), 0, false)).toBe(delay);
  });

  it('no Retry-After header at all → 1000 ms', () => {
    expect(retryDelay(status(429, null), 0, false)).toBe(1000);
  });

  it('the wait does not grow with the attempt, and stops after three retries like any other', () => {
    expect(schedule(status(429, '2'), false)).toEqual([2000, 2000, 2000, undefined, undefined]);
  });
});

describe('retryDelay: 4xx is never retried', () => {
  it.each([400, 401, 402, 403, 404, 409, 410, 413, 415, 422])('%i → never, repeatable or not', (code) => {
    expect(schedule(status(code), false)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(schedule(status(code), true)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('2xx and 3xx are not retried either', () => {
    for (const code of [200, 201, 204, 304]) expect(retryDelay(status(code), 0, true)).toBeUndefined();
  });
});

describe('retryDelay: network failure', () => {
  it('repeatable (reads, checkout with its Idempotency-Key) → 1000, 2000, 4000, then stop', () => {
    expect(schedule(network, true)).toEqual([1000, 2000, 4000, undefined, undefined]);
  });

  it('not repeatable (a write without a key) → never', () => {
    expect(schedule(network, false)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});
