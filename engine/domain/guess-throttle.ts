/**
 * Unknown gift-card codes per API key (issue #24, contract §13), so codes cannot be guessed: after `limit` unknown
 * codes within `windowMs` a key is refused until the oldest of them is `windowMs` old. In memory, per engine
 * process; the clock is passed in.
 */
export interface GuessThrottle {
  /** seconds until the key may try again (≥ 1), or 0 when it may now */
  retryAfter(keyId: string, now: number): number;
  /** counts `count` unknown codes of the key at `now` */
  miss(keyId: string, now: number, count?: number): void;
}

export const GUESS_LIMIT = 10;
export const GUESS_WINDOW_MS = 60_000;

/** A throttle of `limit` unknown codes per key within `windowMs`. */
export function createGuessThrottle(limit = GUESS_LIMIT, windowMs = GUESS_WINDOW_MS): GuessThrottle {
  const misses = new Map<string, number[]>();
  const recent = (keyId: string, now: number): number[] => {
    const kept = (misses.get(keyId) ?? []).filter((at) => at > now - windowMs);
    if (kept.length === 0) misses.delete(keyId);
    else misses.set(keyId, kept);
    return kept;
  };
  return {
    retryAfter(keyId, now) {
      const kept = recent(keyId, now);
      if (kept.length < limit) return 0;
      // free again once enough of them are a window old
      const freeAt = (kept[kept.length - limit] ?? now) + windowMs;
      return Math.max(1, Math.ceil((freeAt - now) / 1000));
    },
    miss(keyId, now, count = 1) {
      const kept = recent(keyId, now);
      for (let i = 0; i < count; i++) kept.push(now);
      misses.set(keyId, kept);
    },
  };
}
