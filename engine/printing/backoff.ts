/**
 * How long a printer's worker waits before trying an unreachable printer again: 2 s, doubling, at most 30 s
 * (a printer back on after a paper change prints within half a minute). Any successful connection resets it.
 */
export interface Backoff {
  readonly baseMs: number;
  readonly capMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 2_000, capMs: 30_000 };

/** the wait after the `failures`-th failure in a row (1-based) */
export function backoffDelay(backoff: Backoff, failures: number): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  return Math.min(backoff.capMs, backoff.baseMs * 2 ** exponent);
}
