/**
 * When to try a request again (spec §7.4): 5xx (503 included) after 1 s, 2 s and 4 s — three retries at
 * most; 429 after its Retry-After; a network failure only where repeating cannot do harm (reads, and a
 * checkout carrying its Idempotency-Key); never a 4xx.
 */
export const BACKOFF_MS = [1000, 2000, 4000] as const;

export type Outcome = { kind: 'status'; status: number; retryAfter: string | null } | { kind: 'network' };

export function retryDelay(outcome: Outcome, retriesSoFar: number, repeatable: boolean): number | undefined {
  if (retriesSoFar >= BACKOFF_MS.length) return undefined;
  if (outcome.kind === 'network') return repeatable ? BACKOFF_MS[retriesSoFar] : undefined;
  if (outcome.status === 429) return retryAfterMs(outcome.retryAfter);
  if (outcome.status >= 500) return BACKOFF_MS[retriesSoFar];
  return undefined;
}

function retryAfterMs(header: string | null): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) * 1000 : 1000;
}
