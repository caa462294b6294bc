import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RETRY, createRetrier, jittered, longWait, requestDelay, systemClock, type AnswerLike } from '../../../engine/sync/retry';

/** The sync worker's retry rules at their shipped defaults, driven by fake timers (spec §7.4, contract §10). */

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

const answer = (status: number, retryAfter?: number): AnswerLike => ({ status, retryAfter });

/** A fake upstream: answers the statuses in turn and records when (fake time) each request was sent. */
function scripted(statuses: readonly (number | [number, number])[]) {
  const sentAt: number[] = [];
  let i = 0;
  return {
    sentAt,
    request: async (): Promise<AnswerLike> => {
      sentAt.push(Date.now());
      const next = statuses[Math.min(i++, statuses.length - 1)] ?? 200;
      return Array.isArray(next) ? answer(next[0], next[1]) : answer(next);
    },
  };
}

const gaps = (times: readonly number[]) => times.slice(1).map((t, i) => t - (times[i] ?? t));

describe('the jitter', () => {
  it('keeps every wait within ±20 % of its step, and spreads them', () => {
    const draws = [0, 0.25, 0.5, 0.75, 0.999_999];
    expect(draws.map((r) => jittered(1000, 0.2, () => r))).toEqual([800, 900, 1000, 1100, 1200]);
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const waits = Array.from({ length: 1000 }, () => requestDelay(2, DEFAULT_RETRY, random));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(1600);
    expect(Math.max(...waits)).toBeLessThanOrEqual(2400);
    expect(new Set(waits).size).toBeGreaterThan(100);
  });

  it('steps 1 s, 2 s per request, then long waits of 4, 8, 16 s capped at 30 s', () => {
    const middle = () => 0.5;
    expect([1, 2].map((n) => requestDelay(n, DEFAULT_RETRY, middle))).toEqual([1000, 2000]);
    expect([0, 1, 2, 3, 4, 10, 60].map((streak) => longWait(streak, DEFAULT_RETRY, middle))).toEqual([4000, 8000, 16000, 30000, 30000, 30000, 30000]);
    // the cap holds whatever the jitter draws
    expect(longWait(3, DEFAULT_RETRY, () => 0.999_999)).toBe(30_000);
    expect(longWait(2, DEFAULT_RETRY, () => 0.999_999)).toBe(19_200);
  });
});

describe('one request', () => {
  it('is sent at most three times, 1 s and then 2 s apart (with jitter), then the worker waits 4 s', async () => {
    const retrier = createRetrier(DEFAULT_RETRY, systemClock, () => 0.5);
    const upstream = scripted([503, 500, 0, 201]);
    const done = retrier.send(upstream.request, true);
    await vi.runAllTimersAsync();
    expect((await done).status).toBe(0);
    expect(upstream.sentAt).toHaveLength(3);
    expect(gaps(upstream.sentAt)).toEqual([1000, 2000]);
    // used up: the whole worker waits the first long wait before anything else is sent
    const start = Date.now();
    expect(retrier.gate() - start).toBe(4000);
    const next = retrier.send(upstream.request, true);
    await vi.runAllTimersAsync();
    expect((await next).status).toBe(201);
    expect((upstream.sentAt.at(-1) ?? 0) - start).toBe(4000);
  });

  it('answers at once with a success, and with a refusal for good (never retried blindly)', async () => {
    const retrier = createRetrier(DEFAULT_RETRY, systemClock, () => 0.5);
    for (const status of [200, 201, 400, 401, 403, 404, 409, 410]) {
      const upstream = scripted([status]);
      const done = retrier.send(upstream.request, true);
      await vi.runAllTimersAsync();
      expect((await done).status).toBe(status);
      expect(upstream.sentAt).toHaveLength(1);
    }
  });

  it('does not repeat a request that is not safe to repeat after a lost answer, but does after a 503', async () => {
    const retrier = createRetrier(DEFAULT_RETRY, systemClock, () => 0.5);
    const lost = scripted([0, 201]);
    const first = retrier.send(lost.request, false);
    await vi.runAllTimersAsync();
    expect((await first).status).toBe(0);
    expect(lost.sentAt).toHaveLength(1);
    const busy = scripted([503, 201]);
    const second = retrier.send(busy.request, false);
    await vi.runAllTimersAsync();
    expect((await second).status).toBe(201);
    expect(gaps(busy.sentAt)).toEqual([1000]);
  });
});

describe('the long wait', () => {
  it('grows while the upstream answers nothing, up to the cap, and starts over after any answer', async () => {
    const retrier = createRetrier(DEFAULT_RETRY, systemClock, () => 0.5);
    const down = scripted([0]);
    const waits: number[] = [];
    for (let round = 0; round < 6; round++) {
      const done = retrier.send(down.request, true);
      await vi.runAllTimersAsync();
      await done;
      waits.push(retrier.gate() - Date.now());
    }
    expect(waits).toEqual([4000, 8000, 16000, 30000, 30000, 30000]);
    expect(retrier.streak()).toBe(6);
    // a refusal is an answer: the upstream is there
    const back = scripted([409]);
    const answered = retrier.send(back.request, true);
    await vi.runAllTimersAsync();
    expect((await answered).status).toBe(409);
    expect(retrier.streak()).toBe(0);
    const again = retrier.send(scripted([0]).request, true);
    await vi.runAllTimersAsync();
    await again;
    expect(retrier.gate() - Date.now()).toBe(4000);
    // and so is a success, after a 503 on the way
    const recovered = retrier.send(scripted([503, 201]).request, true);
    await vi.runAllTimersAsync();
    expect((await recovered).status).toBe(201);
    expect([retrier.streak(), retrier.gate()]).toEqual([0, 0]);
  });

  it('is one wait for requests that fail together, not one step each', async () => {
    const retrier = createRetrier(DEFAULT_RETRY, systemClock, () => 0.5);
    const start = Date.now();
    const upstreams = [1, 2, 3, 4].map(() => scripted([0]));
    const all = Promise.all(upstreams.map((upstream) => retrier.send(upstream.request, true)));
    await vi.runAllTimersAsync();
    await all;
    // The first to use up its attempts (at 3 s) starts the long wait; the other three, due at the same
    // moment, give up with it instead of each taking the wait one step further.
    expect(upstreams.map((upstream) => upstream.sentAt.map((at) => at - start))).toEqual([
      [0, 1000, 3000],
      [0, 1000],
      [0, 1000],
      [0, 1000],
    ]);
    expect(retrier.streak()).toBe(1);
    expect(retrier.gate() - start).toBe(7000);
  });
});

describe('429 with Retry-After', () => {
  it('pauses every request of the worker for that long, without using up an attempt', async () => {
    const retrier = createRetrier(DEFAULT_RETRY, systemClock, () => 0.5);
    const limited = scripted([[429, 3], [429, 3], [429, 3], 201]);
    const other = scripted([201]);
    const done = retrier.send(limited.request, true);
    await vi.advanceTimersByTimeAsync(10);
    // another request started during the pause waits for its end
    const start = Date.now();
    const sibling = retrier.send(other.request, true);
    await vi.runAllTimersAsync();
    expect((await done).status).toBe(201);
    expect((await sibling).status).toBe(201);
    expect(limited.sentAt).toHaveLength(4);
    expect(gaps(limited.sentAt)).toEqual([3000, 3000, 3000]);
    expect((other.sentAt[0] ?? 0) - start).toBeGreaterThanOrEqual(2990);
  });

  it('waits 1 s when the 429 names no Retry-After', async () => {
    const retrier = createRetrier(DEFAULT_RETRY, systemClock, () => 0.5);
    const limited = scripted([429, 200]);
    const done = retrier.send(limited.request, true);
    await vi.runAllTimersAsync();
    await done;
    expect(gaps(limited.sentAt)).toEqual([1000]);
  });

  it('stops waiting when the worker stops', async () => {
    const retrier = createRetrier(DEFAULT_RETRY, systemClock, () => 0.5);
    const stop = new AbortController();
    const limited = scripted([[429, 3600]]);
    const done = retrier.send(limited.request, true, stop.signal);
    await vi.advanceTimersByTimeAsync(5000);
    stop.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect((await done).status).toBe(429);
    expect(limited.sentAt.length).toBeLessThanOrEqual(2);
  });
});
