import type { Log } from '../log';
import { IMPORT_BATCH_LIMIT } from '../contract/import';
import type { OutboxRow } from '../store/outbox-repo';
import type { Clock, Durability, Storage } from '../shared/context';
import { createChannel } from './channel';
import { deliverEntry } from './deliver';
import { deliverBatch } from './deliver-import';
import { pullCatalog } from './pull';
import type { Delivery } from './refusal';
import { DEFAULT_RETRY, createRetrier, systemClock } from './retry';
import { createUpstream } from './upstream';
import { createJournalSender, type JournalSenderStatus } from './journal-sender';
import { createCheckinSender, type CheckinSenderStatus } from './checkin-sender';
import { keysGiven as keysGivenBefore, type TicketKeyPort } from './ticket-key-exchange';

/**
 * The one sync worker of a terminal (contract §10). It asks the upstream what it is (GET /capabilities: a
 * Kassa hub takes whole orders in one request, a plain v3 service the cart flow), pulls the catalog down
 * (at start, then every `pullIntervalMs`), and drains the outbox: up to `concurrency` deliveries at once —
 * to a hub, batches of up to 100 orders — while each order's own entries go one after the other (a
 * cancellation waits for its order). Every request follows the retry rules of retry.ts; a refusal for good
 * goes to the conflict inbox and the entries behind it go on. To a hub that takes journals, the journal follows
 * the orders it records (journal-sender.ts, contract §14), one batch at a time, through the same channel.
 *
 * A new entry wakes the worker at once. To a hub, a batch of fewer than the hub's limit starts at most once
 * every `gatherMs`: the first sale after a quiet spell goes at once, and under a steady stream of sales the
 * orders made meanwhile gather into one import, so that the bookkeeping of a delivery — two outbox commits,
 * each with its fsync, one request and its answer — is paid per batch, not per sale. A full batch (a backlog)
 * never waits.
 */
export interface SyncOptions {
  readonly url: string;
  readonly key: string;
  readonly pullIntervalMs?: number;
  /** the first backoff step (spec: 1 s); every wait of the retry rules scales with it */
  readonly retryBaseMs?: number;
  /** how often an idle worker looks for new entries */
  readonly pollMs?: number;
  /** deliveries in flight at once (default 4) */
  readonly concurrency?: number;
  /** to a hub, the least time between the starts of two batches that are not full (default `GATHER_MS`, at most `pollMs`) */
  readonly gatherMs?: number;
  /** this engine's ticket keys (issue #26): given to the hub at first contact, the hub's learnt at every pull */
  readonly ticketKeys?: TicketKeyPort;
  /** told once the hub took the ticket keys at this start's pull (the allocator then asks for places at once) */
  readonly onKeysGiven?: () => void;
}

/**
 * How long orders sold in a steady stream gather before they go to a hub together: at most this long (plus the
 * import's own round trip) between a sale and its delivery, and at most 1000 / GATHER_MS partial imports a
 * second whatever the rate of sales. A lone sale is not held: it goes as soon as it is made.
 */
export const GATHER_MS = 500;

export interface SyncStatus {
  online: boolean | null;
  lastSuccessAt: string | null;
  lastError: string | null;
  /** the upstream refuses the sync key (401) or its scope (403): nothing goes until an admin fixes it */
  keyRejected: boolean;
  /** what the upstream turned out to be: a Kassa hub, a plain v3 service, or not known yet */
  upstreamKind: 'hub' | 'v3' | null;
  /** the journal's way to the hub (contract §14) */
  journal?: JournalSenderStatus;
  /** offline check-ins' way to the hub (issue #26) */
  checkins?: CheckinSenderStatus;
}

/**
 * What ended the worker's wait before a look: `added` — a new entry, at once; `paced` — a new entry, at the end of
 * its gathering window or the retry gate; `timer` — its own timer (the idle look every `pollMs`, an entry due, a
 * window it found open); `finished` — a delivery or a pull ended; `started`/`stopped`. Each delivery's start is
 * logged at debug level with it, so that how a sale went (woken by itself or found by a look) can be told.
 */
export type Woken = 'started' | 'added' | 'paced' | 'timer' | 'finished' | 'stopped';

/** An order entry that has not begun the cart flow (no upstream cart recorded or attempted): a hub may import it. */
const importable = (entry: OutboxRow): boolean => entry.kind === 'order' && entry.upstreamCartId === null && entry.cartAttemptedAt === null;

/** How long everything waits, in base steps, after the upstream refused the key: an admin has to act. */
const KEY_REJECTED_STEPS = 60;

export async function startSyncWorker(ctx: Storage & Clock & Durability, options: SyncOptions, logger: Log) {
  const outbox = ctx.store.repos.outbox;
  const stopping = new AbortController();
  const upstream = createUpstream({ url: options.url, key: options.key, signal: stopping.signal });
  const policy = { ...DEFAULT_RETRY, baseMs: options.retryBaseMs ?? DEFAULT_RETRY.baseMs };
  const retrier = createRetrier(policy, { now: ctx.now, sleep: systemClock.sleep });
  const channel = createChannel(upstream, retrier, stopping.signal, ctx.now);
  const poll = options.pollMs ?? 1000;
  const pullEvery = options.pullIntervalMs ?? 60_000;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const gather = Math.max(0, options.gatherMs ?? Math.min(GATHER_MS, poll));
  const status: SyncStatus = { online: null, lastSuccessAt: (await outbox.state('last_success_at')) ?? null, lastError: null, keyRejected: false, upstreamKind: null };
  let batchLimit = IMPORT_BATCH_LIMIT;
  /** the hub offers `checkins` (issue #26): its import takes the tickets' codes; an older hub gets none (it would refuse them) */
  let hubTakesTickets = false;
  // the hub took this terminal's ticket keys (at an earlier start, or at this start's first pull)
  let keysGiven = options.ticketKeys === undefined || (await keysGivenBefore(ctx, options.ticketKeys));
  let nextPullAt = 0;
  let pulling = false;
  const inFlight = new Set<string>();
  const jobs = new Set<Promise<void>>();
  let deliveries = 0;
  /** when the last batch to a hub that was not full started */
  let lastPartialAt = Number.NEGATIVE_INFINITY;
  /** the loop's current wait: until when, and how to end it early */
  let sleeping: { until: number; timer: ReturnType<typeof setTimeout>; done: (woken: Woken) => void } | undefined;
  /** ends the loop's wait at `at` if that is sooner than it would end (at once, told `soon`, when `at` has passed; told `later` at `at` when not) */
  const wakeAt = (at: number, soon: Woken, later: Woken = soon): void => {
    if (!sleeping || at >= sleeping.until) return;
    const ms = at - ctx.now();
    if (ms <= 0) {
      sleeping.done(soon);
      return;
    }
    const { done } = sleeping;
    clearTimeout(sleeping.timer);
    sleeping.until = at;
    sleeping.timer = setTimeout(() => done(later), ms);
  };
  const wake = (woken: Woken): void => wakeAt(Number.NEGATIVE_INFINITY, woken);
  /** A partial batch to a hub, which waits for the gathering window of the one before it. */
  const partial = (job: readonly OutboxRow[]): boolean => status.upstreamKind === 'hub' && job.length < batchLimit && job.every(importable);
  // A new order wakes the worker when it may go (a cancellation at once); nothing is read in the sale's request.
  const unlisten = await outbox.onAdded((kind) => {
    const paced = kind === 'order' && status.upstreamKind === 'hub' ? lastPartialAt + gather : 0;
    wakeAt(Math.max(paced, retrier.gate()), 'added', 'paced');
  });

  const answered = (now: number) => {
    status.online = true;
    status.lastError = null;
    if (status.keyRejected) logger.info('the upstream accepts the sync key again');
    status.keyRejected = false;
    status.lastSuccessAt = new Date(now).toISOString();
  };
  const failed = (reason: string, keyRejected = false) => {
    status.lastError = reason;
    // Offline means the upstream answers nothing; a refusal or a lost answer now and then is not offline.
    if (retrier.streak() > 0) status.online = false;
    if (keyRejected) {
      // The upstream answers, but nothing this terminal sends is taken: for the till that is not online (the
      // header shows the refused key instead, contract §9).
      status.online = false;
      if (!status.keyRejected) logger.error({ upstream: options.url, reason }, 'the upstream refuses the sync key: orders wait until it is fixed');
      status.keyRejected = true;
      retrier.pause(KEY_REJECTED_STEPS * policy.baseMs);
    }
  };

  const journal = createJournalSender(ctx, channel, { baseMs: policy.baseMs, gatherMs: gather, gate: () => retrier.gate() }, {
    answered,
    failed,
    rediscover: () => {
      nextPullAt = 0;
    },
  }, logger);

  // offline check-ins follow the same rules (checkin-sender.ts)
  const checkins = createCheckinSender(ctx, channel, { baseMs: policy.baseMs, gatherMs: gather, gate: () => retrier.gate() }, {
    answered,
    failed,
    rediscover: () => {
      nextPullAt = 0;
    },
  }, logger);

  /** runs `work` as one of the worker's jobs (awaited at stop), and looks again when it ends */
  function track(work: Promise<void>): void {
    const running: Promise<void> = work.finally(() => {
      jobs.delete(running);
      wake('finished');
    });
    jobs.add(running);
  }

  async function pull(): Promise<void> {
    const result = await pullCatalog(ctx, channel, logger, options.ticketKeys);
    if (result.keysGiven === true && !keysGiven) {
      keysGiven = true;
      options.onKeysGiven?.();
    }
    const now = ctx.now();
    if (result.kind !== undefined) {
      status.upstreamKind = result.kind;
      journal.offered(result.journal === true);
      checkins.offered(result.checkins === true);
      hubTakesTickets = result.checkins === true;
      if (result.batchLimit !== undefined) batchLimit = Math.min(IMPORT_BATCH_LIMIT, result.batchLimit);
    }
    if (result.ok) {
      answered(now);
      await outbox.setState('last_success_at', status.lastSuccessAt ?? '');
      nextPullAt = now + pullEvery;
    } else {
      failed(result.reason, result.keyRejected);
      nextPullAt = result.offline ? retrier.gate() : now + Math.min(pullEvery, 5 * policy.baseMs);
    }
  }

  /** The next delivery that may start: a batch of orders for a hub, otherwise one entry. */
  async function nextJob(now: number): Promise<OutboxRow[] | undefined> {
    const ready = (await outbox.ready(now, batchLimit + inFlight.size)).filter((entry) => !inFlight.has(entry.orderId));
    const [first] = ready;
    if (!first) return undefined;
    if (status.upstreamKind !== 'hub' || !importable(first)) return [first];
    const batch: OutboxRow[] = [];
    const orders = new Set<string>();
    for (const entry of ready) {
      if (batch.length >= batchLimit) break;
      if (importable(entry) && !orders.has(entry.orderId)) {
        batch.push(entry);
        orders.add(entry.orderId);
      }
    }
    return batch;
  }

  async function run(job: readonly OutboxRow[]): Promise<void> {
    // the hub learns of no sale this terminal could still lose at a power cut
    await ctx.whenDurable();
    const [single] = job;
    const outcomes = status.upstreamKind === 'hub' && job.every(importable)
      ? await deliverBatch(ctx, channel, job, hubTakesTickets)
      : new Map(single ? [[single.id, await deliverEntry(ctx, channel, single)]] : []);
    await record(job, outcomes);
  }

  async function record(job: readonly OutboxRow[], outcomes: ReadonlyMap<number, Delivery>): Promise<void> {
    const now = ctx.now();
    const conflicts: { entry: OutboxRow; cartId: string | null; code: string }[] = [];
    let progress = false;
    let problem: Extract<Delivery, { kind: 'retry' }> | undefined;
    await ctx.store.transaction(async (tx) => {
      for (const entry of job) {
        const outcome = outcomes.get(entry.id) ?? { kind: 'retry', reason: 'not attempted' };
        if (outcome.kind === 'delivered') {
          await tx.outbox.delivered(entry.id, outcome.upstreamOrderId, now);
          progress = true;
        } else if (outcome.kind === 'conflict') {
          const cartId = (await tx.outbox.get(entry.id))?.upstreamCartId ?? null;
          await tx.outbox.conflict(entry.id, outcome.code, outcome.message, now);
          conflicts.push({ entry, cartId, code: outcome.code });
          progress = true;
        } else {
          if (outcome.newCart) await tx.outbox.setUpstreamCart(entry.id, null);
          const at = Math.max(now + (outcome.afterSteps ?? 0) * policy.baseMs, retrier.gate());
          await tx.outbox.retryLater(entry.id, at, outcome.reason);
          problem ??= outcome;
        }
      }
      if (progress) await tx.outbox.setState('last_success_at', new Date(now).toISOString());
    });
    if (progress) answered(now);
    if (problem) {
      failed(problem.reason, problem.keyRejected);
      if (problem.rediscover) nextPullAt = 0;
    }
    for (const { entry, cartId, code } of conflicts) {
      logger.warn({ entry: entry.id, order: entry.orderId, code }, 'sync conflict: kept for staff');
      // The upstream cart made for it holds stock there: give it back (best effort; it would time out).
      if (cartId) void upstream.delete(`/carts/${encodeURIComponent(cartId)}`);
    }
  }

  function start(job: OutboxRow[], woken: Woken): void {
    logger.debug({ entries: job.length, orders: job.map((entry) => entry.orderId), woken }, 'sync delivery started');
    for (const entry of job) inFlight.add(entry.orderId);
    deliveries++;
    const running: Promise<void> = run(job)
      .catch((error: unknown) => {
        logger.error({ err: error }, 'sync delivery failed; trying again');
        status.lastError = error instanceof Error ? error.message : String(error);
      })
      .finally(() => {
        for (const entry of job) inFlight.delete(entry.orderId);
        deliveries--;
        jobs.delete(running);
        wake('finished');
      });
    jobs.add(running);
  }

  async function loop(): Promise<void> {
    let woken: Woken = 'started';
    while (!stopping.signal.aborted) {
      const now = ctx.now();
      const gate = retrier.gate();
      if (now >= gate && !pulling && (status.upstreamKind === null || now >= nextPullAt)) {
        pulling = true;
        const pulled: Promise<void> = pull()
          .catch((error: unknown) => logger.error({ err: error }, 'catalog pull failed'))
          .finally(() => {
            pulling = false;
            jobs.delete(pulled);
            wake('finished');
          });
        jobs.add(pulled);
      }
      let wait = poll;
      if (now < gate) wait = Math.min(wait, gate - now);
      else if (status.upstreamKind !== null) {
        try {
          while (deliveries < concurrency) {
            const job = await nextJob(now);
            if (!job) break;
            if (partial(job)) {
              const at = lastPartialAt + gather;
              if (now < at) {
                wait = Math.min(wait, at - now);
                break;
              }
              lastPartialAt = now;
            }
            start(job, woken);
          }
        } catch (error) {
          logger.error({ err: error }, 'sync worker failed; trying again');
        }
        // the journal after the orders it records (journal-sender.ts): its entries wait for their orders' delivery
        const sending = journal.start(now);
        if (sending) track(sending);
        const sendingCheckins = checkins.start(now);
        if (sendingCheckins) track(sendingCheckins);
        const checkinsDue = checkins.due();
        if (checkinsDue !== undefined && checkinsDue > now) wait = Math.min(wait, checkinsDue - now);
        const journalDue = journal.due();
        if (journalDue !== undefined && journalDue > now) wait = Math.min(wait, journalDue - now);
        const due = await outbox.nextDue();
        if (due !== undefined && due > now) wait = Math.min(wait, due - now);
      }
      woken = await new Promise<Woken>((resolve) => {
        const ms = Math.max(1, wait);
        const done = (why: Woken): void => {
          if (sleeping) clearTimeout(sleeping.timer);
          sleeping = undefined;
          resolve(why);
        };
        sleeping = { until: ctx.now() + ms, timer: setTimeout(() => done('timer'), ms), done };
        if (stopping.signal.aborted) done('stopped');
      });
    }
  }

  const looping = loop();
  return {
    status: (): SyncStatus => ({ ...status, journal: journal.status(), checkins: checkins.status() }),
    url: options.url,
    /** until when everything sent upstream waits (a 429's Retry-After, a refused key): the allocator waits too */
    gate: (): number => retrier.gate(),
    /** the hub has this terminal's ticket keys: the allocator may ask for places (issue #26) */
    keysGiven: (): boolean => keysGiven,
    /** a 429 answered to another sender of this terminal pauses the worker as well */
    pause: (ms: number): void => retrier.pause(ms),
    async stop(): Promise<void> {
      unlisten();
      stopping.abort();
      wake('stopped');
      await looping;
      await Promise.all([...jobs]);
    },
  };
}

export type SyncWorker = Awaited<ReturnType<typeof startSyncWorker>>;
