import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import Value from 'typebox/value';
import { CatalogDocument } from '../contract/catalog';
import { immediate } from '../store/db';
import { importCatalog } from '../use-cases/catalog';
import type { EngineContext } from '../use-cases/context';
import { deliver } from './deliver';
import { createUpstream, dataOf } from './upstream';

/**
 * The one sync worker: pulls the catalog down (at start, then every `pullIntervalMs` while online) and
 * drains the outbox in order. Retries follow spec §7.4 — 1 s, 2 s, 4 s on 5xx and network failures, then
 * longer while the upstream stays down (up to a minute), Retry-After on 429 — and a 4xx refusal goes to the
 * conflict inbox rather than being retried blindly.
 */
export interface SyncOptions {
  readonly url: string;
  readonly key: string;
  readonly pullIntervalMs?: number;
  /** the first backoff step (spec: 1 s); tests shorten it */
  readonly retryBaseMs?: number;
  /** how often an idle worker looks for new entries */
  readonly pollMs?: number;
}

export interface SyncStatus {
  online: boolean | null;
  lastSuccessAt: string | null;
  lastError: string | null;
}

const BACKOFF = [1, 2, 4, 8, 16, 30, 60];

export function startSyncWorker(ctx: EngineContext, options: SyncOptions, logger: FastifyBaseLogger) {
  const upstream = createUpstream({ url: options.url, key: options.key });
  const base = options.retryBaseMs ?? 1000;
  const poll = options.pollMs ?? 1000;
  const pullEvery = options.pullIntervalMs ?? 60_000;
  const status: SyncStatus = { online: null, lastSuccessAt: ctx.outbox.state('last_success_at') ?? null, lastError: null };
  let nextPullAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const succeeded = () => {
    status.online = true;
    status.lastError = null;
    status.lastSuccessAt = new Date(ctx.now()).toISOString();
    immediate(ctx.db, () => ctx.outbox.setState('last_success_at', status.lastSuccessAt ?? ''));
  };
  const failed = (reason: string, reachable: boolean) => {
    status.online = reachable;
    status.lastError = reason;
  };

  async function pullCatalog(): Promise<void> {
    const answer = await upstream.get('/catalog');
    const doc = answer.status === 200 ? dataOf<unknown>(answer) : undefined;
    if (doc === undefined || !Value.Check(CatalogDocument, doc)) {
      failed(`catalog pull: upstream answered ${answer.status}`, answer.status > 0 && answer.status < 500);
      nextPullAt = ctx.now() + (answer.retryAfter !== undefined ? answer.retryAfter * 1000 : Math.min(pullEvery, 5 * base));
      return;
    }
    const hash = createHash('sha256').update(JSON.stringify(doc)).digest('hex');
    if (hash !== ctx.outbox.state('catalog_hash')) {
      importCatalog(ctx, doc);
      immediate(ctx.db, () => ctx.outbox.setState('catalog_hash', hash));
      logger.info('catalog pulled from upstream');
    }
    succeeded();
    nextPullAt = ctx.now() + pullEvery;
  }

  /** Delivers entries in order until the outbox is empty or the head must wait; answers the wait in ms. */
  async function drain(): Promise<number> {
    for (;;) {
      if (stopped) return poll;
      const entry = ctx.outbox.next();
      if (!entry) return poll;
      const wait = entry.nextAttemptAt - ctx.now();
      if (wait > 0) return Math.min(wait, poll);
      const outcome = await deliver(ctx, upstream, entry);
      const now = ctx.now();
      if (outcome.kind === 'delivered') {
        immediate(ctx.db, () => ctx.outbox.delivered(entry.id, outcome.upstreamOrderId, now));
        succeeded();
      } else if (outcome.kind === 'conflict') {
        immediate(ctx.db, () => ctx.outbox.conflict(entry.id, outcome.code, outcome.message, now));
        // The upstream cart made for it holds stock there: give it back (best effort; it would time out).
        const heldUpstream = ctx.outbox.get(entry.id)?.upstreamCartId;
        if (heldUpstream) await upstream.delete(`/carts/${encodeURIComponent(heldUpstream)}`);
        logger.warn({ entry: entry.id, order: entry.orderId, code: outcome.code }, 'sync conflict: kept for staff');
        succeeded();
      } else {
        const step = outcome.afterSeconds !== undefined ? outcome.afterSeconds * 1000 : (BACKOFF[Math.min(entry.attempts, BACKOFF.length - 1)] ?? 60) * base;
        immediate(ctx.db, () => {
          if (outcome.newCart) ctx.outbox.setUpstreamCart(entry.id, null);
          ctx.outbox.retryLater(entry.id, now + step, outcome.reason);
        });
        failed(outcome.reason, outcome.offline !== true);
        if (step > 0) return Math.min(step, poll);
      }
    }
  }

  async function tick(): Promise<void> {
    let wait = poll;
    try {
      if (ctx.now() >= nextPullAt) await pullCatalog();
      wait = await drain();
    } catch (error) {
      logger.error({ err: error }, 'sync worker failed; trying again');
      failed(error instanceof Error ? error.message : String(error), status.online ?? false);
    }
    if (!stopped) timer = setTimeout(run, wait);
  }

  function run(): void {
    running = tick().finally(() => {
      running = undefined;
    });
  }

  run();
  return {
    status: (): SyncStatus => ({ ...status }),
    url: options.url,
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

export type SyncWorker = ReturnType<typeof startSyncWorker>;
