import { randomUUID } from 'node:crypto';
import type { Log } from '../log';
import type { AllocationChange, Allocations } from '../contract/allocation';
import type { Clock, Durability, Storage, TerminalRole } from '../shared/context';
import { backgroundChanges, giveBackChanges, onDemandChanges } from './holdings-plan';
import type { CreateCartBody } from '../contract/cart';
import { createUpstream, dataOf, errorOf } from './upstream';
import { holdUpstreamFirst, type UpstreamHold } from './upstream-hold';

/**
 * A terminal's allocations (contract §10): what it holds from its hub, kept in hand in the background and
 * asked for within the request that needs more. Every change is one POST /allocations with an
 * Idempotency-Key; an answer that is lost is asked for again with the same key until it arrives, and the
 * terminal's count is set to the hub's whenever none of its sales is on the way there.
 */
export interface AllocatorOptions {
  readonly url: string;
  readonly key: string;
  /** places of each general item of each on-sale occurrence kept in hand (contract: default 10) */
  readonly allocation: number;
  /** a plain v3 upstream: sell while it cannot be reached (contract §10 --offline-sales) */
  readonly offlineSales: boolean;
  /** how often the background top-up runs (default 5 s) */
  readonly cycleMs?: number;
  /** how long an on-demand grant may take before the sale goes on with what is in hand (default 5 s) */
  readonly requestTimeoutMs?: number;
  /** the sync worker's pause (a 429's Retry-After, the long wait while the upstream is silent): nothing is sent before it */
  readonly gate?: {
    until(): number;
    pause(ms: number): void;
    online(): boolean | null;
    /**
     * the hub has this terminal's public ticket keys (issue #26): no place is asked for before, so nothing is sold
     * whose signed code the hub (and every gate) could not verify; absent: always
     */
    keysGiven?(): boolean;
  };
}

export type AllocationMode = 'hub' | 'plain' | 'unknown';

/** How long a sale right after the start waits for the hub to take this terminal's ticket keys before it asks for places. */
const KEYS_WAIT_MS = 2000;

/** How often a terminal of a plain v3 upstream asks again whether it became a hub. */
const REDETECT_MS = 60_000;

export async function startAllocator(ctx: Storage & Clock & Durability & TerminalRole, options: AllocatorOptions, logger: Log) {
  const upstream = createUpstream({ url: options.url, key: options.key, timeoutMs: options.requestTimeoutMs ?? 5000 });
  const cycleMs = options.cycleMs ?? 5000;
  let mode: AllocationMode = modeOf(await ctx.store.repos.outbox.state('allocation_mode'));
  let reachable = false;
  const setOnline = (value: boolean): void => {
    reachable = value;
    ctx.terminal.online = value;
  };
  let lastTry = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  /** requests sent whose answer has not arrived: asked again with the same key */
  const unanswered = new Map<string, AllocationChange[]>();
  let queue: Promise<unknown> = Promise.resolve();
  let detectedAt = 0;
  /** shows whose places staff gave back: not topped up again until the till restarts */
  const givenBack = new Set<string>();
  const gated = (): boolean => ctx.now() < (options.gate?.until() ?? 0);
  /** the hub does not have this terminal's ticket keys yet (issue #26): no place is asked for */
  const keyless = (): boolean => options.gate?.keysGiven?.() === false;
  /** a sale at the start waits a moment for the worker's first pull to give the hub the keys */
  async function keysGivenWithin(ms: number): Promise<boolean> {
    for (const until = Date.now() + ms; keyless() && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 25));
    return !keyless();
  }
  const limited = (retryAfter: number | undefined): void => options.gate?.pause((retryAfter ?? 1) * 1000);
  ctx.terminal.sellsFromHoldings = mode === 'hub';

  /** One allocation request at a time, so the counts each one starts from are current. */
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  async function detect(): Promise<void> {
    if (gated()) return;
    detectedAt = ctx.now();
    const answer = await upstream.get('/capabilities');
    if (answer.status === 429) return limited(answer.retryAfter);
    if (answer.status === 0 || answer.status >= 500) return setOnline(false);
    setOnline(true);
    const extensions = dataOf<{ extensions?: unknown }>(answer)?.extensions;
    const found: AllocationMode = Array.isArray(extensions) && extensions.includes('allocations.places') ? 'hub' : 'plain';
    if (found !== mode) logger.info({ mode: found }, found === 'hub' ? 'upstream grants allocations: this till sells what it holds' : 'upstream is a plain v3 service');
    mode = found;
    ctx.terminal.sellsFromHoldings = mode === 'hub';
    await ctx.store.repos.outbox.setState('allocation_mode', mode);
  }

  /** Sends changes (one request, one key); applies the hub's answer to the counts in hand. */
  async function send(changes: AllocationChange[], key: string = randomUUID()): Promise<'granted' | 'refused' | 'unanswered'> {
    if (changes.length === 0) return 'granted';
    if (gated() || (keyless() && changes.some((change) => change.change > 0))) return 'unanswered';
    unanswered.set(key, changes);
    const sentAt = ctx.now();
    lastTry = sentAt;
    const answer = await upstream.post('/allocations', { changes }, key);
    if (answer.status === 429) {
      limited(answer.retryAfter);
      return 'unanswered';
    }
    if (answer.status === 0 || answer.status >= 500) {
      setOnline(false);
      return 'unanswered';
    }
    setOnline(true);
    unanswered.delete(key);
    const data = answer.status === 200 ? dataOf<Allocations>(answer) : undefined;
    if (!data) {
      const error = errorOf(answer);
      // a hub older than `forSale` refuses the field: ask it as before (within its cap)
      if (answer.status === 400 && error?.details.reason === 'unknown_field' && changes.some((c) => c.forSale !== undefined)) {
        return send(changes.map((change) => ({ occurrenceId: change.occurrenceId, inventoryItemId: change.inventoryItemId, change: change.change, ...(change.minimum !== undefined && { minimum: change.minimum }) })));
      }
      // 409: the venue (or, for places to keep in hand, the hub's --allocation-cap) has fewer than the minimum
      if (answer.status === 409) logger.info({ code: error?.code, details: error?.details }, 'the hub granted none of an allocation request');
      else logger.warn({ status: answer.status, code: error?.code }, 'the hub refused an allocation request');
      return 'refused';
    }
    await ctx.store.transaction(async (tx) => {
      for (const row of data.allocations) {
        if (row.change) await tx.holdings.add(row.occurrenceId, row.inventoryItemId, row.change);
        await tx.holdings.venue(row.occurrenceId, row.inventoryItemId, row.available, sentAt);
      }
      await tx.holdings.renew(sentAt + data.lapseSeconds * 1000);
    });
    // what the hub now counts (places given back above all) is on this till's disk at once, as with every
    // commit before group commit: a till must never come back from a power cut holding places it gave back
    await ctx.whenDurable();
    return 'granted';
  }

  /** GET /allocations renews them at the hub; with no sale of ours on the way, the hub's count is ours. */
  async function reconcile(): Promise<void> {
    if (gated()) return;
    const before = await ctx.store.repos.holdings.syncProgress();
    const sentAt = ctx.now();
    const answer = await upstream.get('/allocations');
    if (answer.status === 429) return limited(answer.retryAfter);
    const data = answer.status === 200 ? dataOf<Allocations>(answer) : undefined;
    if (!data) return setOnline(answer.status !== 0 && answer.status < 500);
    setOnline(true);
    await ctx.store.transaction(async (tx) => {
      await tx.holdings.renew(sentAt + data.lapseSeconds * 1000);
      const after = await tx.holdings.syncProgress();
      if (unanswered.size > 0 || after.pendingOrders > 0 || after.lastId !== before.lastId) return;
      const hub = new Map(data.allocations.map((row) => [`${row.occurrenceId}\n${row.inventoryItemId}`, row.quantity]));
      for (const row of await tx.holdings.all()) hub.set(`${row.occurrenceId}\n${row.inventoryItemId}`, hub.get(`${row.occurrenceId}\n${row.inventoryItemId}`) ?? 0);
      for (const [id, quantity] of hub) {
        const [occurrenceId = '', itemId = ''] = id.split('\n');
        await tx.holdings.set(occurrenceId, itemId, quantity);
      }
    });
    await ctx.whenDurable();
  }

  async function refreshVenue(): Promise<void> {
    for (const occurrence of (await ctx.store.repos.catalog.allOccurrences()).filter((o) => o.onSale === 1)) {
      if (gated()) return;
      const sentAt = ctx.now();
      const answer = await upstream.get(`/occurrences/${encodeURIComponent(occurrence.id)}/inventory`);
      const data = dataOf<{ areas: { inventoryItems: { id: string; available: number }[] }[] }>(answer);
      if (!data) return;
      await ctx.store.transaction(async (tx) => {
        for (const item of data.areas.flatMap((area) => area.inventoryItems)) await tx.holdings.venue(occurrence.id, item.id, item.available, sentAt);
      });
    }
  }

  async function cycle(): Promise<void> {
    // The worker hears first when the upstream goes silent (and then pauses everything): so does the till.
    if (options.gate?.online() === false) setOnline(false);
    // Not a hub (yet): ask again now and then — an upstream may be upgraded or replaced.
    if (mode === 'unknown' || (mode === 'plain' && ctx.now() - detectedAt >= REDETECT_MS)) await detect();
    if (mode !== 'hub') return;
    await exclusive(async () => {
      for (const [key, changes] of [...unanswered]) await send(changes, key);
      await reconcile();
      if (!reachable) return;
      await send(await backgroundChanges(ctx.store.repos, options.allocation, ctx.now(), givenBack));
    });
    if (reachable) await refreshVenue();
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = cycle()
        .catch((error: unknown) => logger.error({ err: error }, 'allocation top-up failed; trying again'))
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, running === undefined && timer === undefined ? 0 : cycleMs);
  }
  schedule();

  return {
    mode: (): AllocationMode => mode,
    /** runs the next top-up now rather than at the end of its wait (the hub took this terminal's ticket keys) */
    kick(): void {
      if (stopped || running !== undefined) return;
      clearTimeout(timer);
      timer = undefined;
      schedule();
    },
    online: (): boolean => reachable,
    /**
     * Before a cart is made here. A hub: asks it, within this request, for what the cart needs beyond what is
     * in hand. A plain v3 upstream (or one not reached yet): holds the cart there first (upstream-hold.ts).
     */
    async beforeCart(body: CreateCartBody): Promise<UpstreamHold | undefined> {
      if (mode === 'unknown') await detect();
      if (mode !== 'hub') return holdUpstreamFirst(ctx, upstream, body, { offlineSales: options.offlineSales, logger, gated, limited });
      if (!reachable && ctx.now() - lastTry < cycleMs) return undefined;
      const changes = await onDemandChanges(ctx.store.repos, body.items, options.allocation, ctx.now());
      if (changes.length > 0 && (await keysGivenWithin(KEYS_WAIT_MS))) await exclusive(() => send(changes));
      return undefined;
    },
    /** A plain v3 upstream: a cart released here releases the cart held for it upstream (best effort; it would time out). */
    async afterCartReleased(localCartId: string): Promise<void> {
      const upstreamCartId = mode === 'hub' ? null : await ctx.store.repos.holdings.upstreamCartOf(localCartId);
      if (upstreamCartId !== null && !gated()) await upstream.delete(`/carts/${encodeURIComponent(upstreamCartId)}`);
    },
    /** Gives back what is in hand and in no cart: all of it, or one occurrence's (staff, off sale). */
    async giveBack(occurrenceId?: string): Promise<'granted' | 'refused' | 'unanswered'> {
      const shows = occurrenceId === undefined ? (await ctx.store.repos.catalog.allOccurrences()).map((o) => o.id) : [occurrenceId];
      for (const show of shows) givenBack.add(show);
      return exclusive(async () => send(await giveBackChanges(ctx.store.repos, occurrenceId)));
    },
    async stop(options: { giveBack: boolean }): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
      if (options.giveBack && mode === 'hub') {
        const outcome = await exclusive(async () => send(await giveBackChanges(ctx.store.repos, undefined))).catch(() => 'unanswered' as const);
        logger.info({ outcome }, 'places in hand given back to the hub');
      }
    },
  };
}

export type Allocator = Awaited<ReturnType<typeof startAllocator>>;

function modeOf(value: string | undefined): AllocationMode {
  return value === 'hub' || value === 'plain' ? value : 'unknown';
}
