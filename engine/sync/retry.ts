/**
 * The sync worker's retry rules (spec §7.4, contract §10), pure apart from the clock and the random source
 * it is given, so that unit tests drive it with fake timers.
 *
 * - **Per request:** a 5xx or a network failure is tried again after 1 s, then 2 s (each ±20 % jitter): at
 *   most three attempts of one request. A request that cannot be repeated safely (it is not idempotent and
 *   the upstream may have acted on it) is not tried again here: its caller decides.
 * - **429:** `Retry-After` (1 s when absent) pauses the whole worker — every request waits it out — and does
 *   not use up an attempt.
 * - **Long wait:** when a request's attempts are used up, the worker waits 4 s, then 8, 16, … up to the cap
 *   (30 s), for as long as the upstream answers nothing successfully; any answer of the upstream (a success
 *   or a refusal) resets it to 4 s.
 * Every step scales with `baseMs` (1 s by default; `--sync-retry-ms` shortens it for drills and tests).
 */

export interface RetryClock {
  now(): number;
  /** resolves after `ms`, or early when `signal` aborts */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface RetryPolicy {
  /** the first step: 1000 ms */
  readonly baseMs: number;
  /** attempts of one request before its entry waits: 3 */
  readonly attempts: number;
  /** the long wait never exceeds this many base steps: 30 (30 s) */
  readonly capSteps: number;
  /** ± this fraction of each wait: 0.2 */
  readonly jitter: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 1000, attempts: 3, capSteps: 30, jitter: 0.2 };

export interface AnswerLike {
  readonly status: number;
  readonly retryAfter: number | undefined;
}

/** A wait of `ms` with jitter drawn from `random` (in [0, 1)), never below zero. */
export function jittered(ms: number, jitter: number, random: () => number): number {
  return Math.max(0, Math.round(ms * (1 - jitter + 2 * jitter * random())));
}

/** The wait after the n-th failed attempt of a request (n = 1, 2): base · 2^(n−1), jittered. */
export function requestDelay(failedAttempts: number, policy: RetryPolicy, random: () => number): number {
  return jittered(policy.baseMs * 2 ** (failedAttempts - 1), policy.jitter, random);
}

/** The worker's long wait after `streak` earlier long waits without any answer between: 4 s · 2^streak, jittered, capped. */
export function longWait(streak: number, policy: RetryPolicy, random: () => number): number {
  const cap = policy.capSteps * policy.baseMs;
  const step = policy.baseMs * 2 ** (policy.attempts - 1) * 2 ** Math.min(streak, 20);
  return Math.min(cap, jittered(Math.min(step, cap), policy.jitter, random));
}

/** 5xx or no answer at all (status 0: refused, reset, timed out). */
export const isTransient = (status: number): boolean => status === 0 || status >= 500;

/**
 * One worker's retry state: the pause a 429 asked for, the long wait while the upstream is silent, and
 * the per-request loop. `send` runs one request under these rules and answers its last answer.
 */
export function createRetrier(policy: RetryPolicy, clock: RetryClock, random: () => number = Math.random) {
  let pausedUntil = 0;
  let silentUntil = 0;
  let silentSince = Number.NEGATIVE_INFINITY;
  let streak = 0;

  const state = {
    /** no request may start before this moment (429 pause or long wait) */
    gate: (): number => Math.max(pausedUntil, silentUntil),
    /** the upstream answered (anything but a 5xx or silence): the long wait starts over */
    answered(): void {
      streak = 0;
      silentUntil = 0;
      silentSince = Number.NEGATIVE_INFINITY;
    },
    /**
     * A request used up its attempts without an answer, its last one sent at `sentAt`: the whole worker
     * waits; answers until when. Attempts sent before the current long wait began saw the same silence:
     * they share that wait rather than each taking it one step further.
     */
    silent(sentAt: number = clock.now()): number {
      if (sentAt > silentSince) {
        silentSince = clock.now();
        silentUntil = silentSince + longWait(streak, policy, random);
        streak++;
      }
      return silentUntil;
    },
    /** nothing is sent for `ms` (a 429's Retry-After, a key the upstream refused) */
    pause(ms: number): void {
      pausedUntil = Math.max(pausedUntil, clock.now() + Math.max(0, ms));
    },
    /** how many long waits in a row (0 after any answer) */
    streak: (): number => streak,
    async waitGate(signal?: AbortSignal): Promise<void> {
      for (let wait = state.gate() - clock.now(); wait > 0 && !signal?.aborted; wait = state.gate() - clock.now()) {
        await clock.sleep(wait, signal);
      }
    },
    /**
     * Sends `request` until it is answered, under the rules above. `repeatable`: safe to send again after
     * a failure the upstream may have acted on (idempotent, or carrying an Idempotency-Key). A 503 is always
     * repeatable (spec §7.2: the same request should succeed on retry). When the attempts are used up the
     * worker's long wait begins. Stops early when `signal` aborts.
     */
    async send<A extends AnswerLike>(request: () => Promise<A>, repeatable: boolean, signal?: AbortSignal): Promise<A> {
      let failures = 0;
      let last: A | undefined;
      for (;;) {
        // A long wait began while this request waited for its next attempt: it waits with the rest.
        if (last !== undefined && silentUntil > clock.now()) return last;
        await state.waitGate(signal);
        const sentAt = clock.now();
        const answer = await request();
        if (signal?.aborted) return answer;
        if (answer.status === 429) {
          state.answered();
          state.pause((answer.retryAfter ?? 1) * 1000);
          continue;
        }
        if (!isTransient(answer.status)) {
          state.answered();
          return answer;
        }
        failures++;
        if (!(repeatable || answer.status === 503)) return answer;
        if (failures >= policy.attempts) {
          state.silent(sentAt);
          return answer;
        }
        last = answer;
        await clock.sleep(requestDelay(failures, policy, random), signal);
      }
    },
  };
  return state;
}

export type Retrier = ReturnType<typeof createRetrier>;

/** The real clock: Date.now and an abortable setTimeout. */
export const systemClock: RetryClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};
