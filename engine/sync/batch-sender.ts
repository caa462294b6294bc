import type { Log } from '../log';
import type { Clock } from '../shared/context';

/**
 * One kind of batch on its way to the hub, one batch at a time (the journal, contract §14; offline check-ins, §15):
 * when it may start and how long it waits after each answer. Every request goes through the worker's channel and
 * retry rules, like the orders; a batch that is not full starts at most once every `gatherMs`, and a look that finds
 * nothing to send waits as long before the next. What is sent, and what an answer means, is the caller's `send`.
 */

/** What one batch came to, as the sender's waits see it. */
export type BatchStep =
  /** nothing to send now */
  | { readonly kind: 'idle' }
  /** the hub took it; `full`: the batch was as large as allowed (more may wait) */
  | { readonly kind: 'sent'; readonly full: boolean }
  /** the hub answered and the next batch may start at once (the journal's rewound cursor) */
  | { readonly kind: 'again' }
  /** the hub answered with a refusal of the whole batch: it waits REFUSED_STEPS base steps (staff may act meanwhile) */
  | { readonly kind: 'refused' }
  /** no usable answer: the worker's retry rules; `rediscover`: ask the upstream what it offers again */
  | { readonly kind: 'retry'; readonly reason: string; readonly keyRejected?: boolean; readonly rediscover?: boolean };

export interface BatchSenderHooks {
  /** the upstream answered (progress) */
  answered(now: number): void;
  /** it did not; `keyRejected`: the sync key is refused */
  failed(reason: string, keyRejected?: boolean): void;
  /** ask the upstream what it is again */
  rediscover(): void;
}

export interface BatchSenderOptions {
  readonly baseMs: number;
  readonly gatherMs: number;
  /** the worker's retry gate: no request before it */
  readonly gate: () => number;
}

/** How long a refused batch waits, in base steps, before it is offered again. */
export const REFUSED_STEPS = 60;

/** A sender of one kind of batch; `what` names it in the log. */
export function createBatchSender(
  ctx: Clock,
  options: BatchSenderOptions,
  hooks: BatchSenderHooks,
  logger: Log,
  what: string,
  send: () => Promise<BatchStep>,
) {
  let accepted: boolean | null = null;
  let running = false;
  let nextAt = 0;

  function record(step: BatchStep, startedAt: number): void {
    const now = ctx.now();
    switch (step.kind) {
      case 'idle':
        nextAt = startedAt + options.gatherMs;
        return;
      case 'sent':
        hooks.answered(now);
        nextAt = step.full ? 0 : startedAt + options.gatherMs;
        return;
      case 'again':
        hooks.answered(now);
        nextAt = 0;
        return;
      case 'refused':
        hooks.answered(now);
        nextAt = now + REFUSED_STEPS * options.baseMs;
        return;
      case 'retry':
        hooks.failed(step.reason, step.keyRejected);
        if (step.rediscover === true) {
          accepted = null;
          hooks.rediscover();
        }
        nextAt = Math.max(now + options.baseMs, options.gate());
        return;
    }
  }

  return {
    /** the upstream takes this kind of batch (null: not known yet) */
    accepted: (): boolean | null => accepted,
    /** what the upstream's capabilities said */
    offered(offer: boolean): void {
      accepted = offer;
    },
    /** when a batch may start next (undefined: the upstream takes none, or one is on its way) */
    due(): number | undefined {
      return accepted === true && !running ? nextAt : undefined;
    },
    /** starts a batch when one may start at `now`; answers its promise (undefined: none started) */
    start(now: number): Promise<void> | undefined {
      if (accepted !== true || running || now < nextAt) return undefined;
      running = true;
      return send()
        .then((step) => record(step, now))
        .catch((error: unknown) => {
          logger.error({ err: error }, `${what} delivery failed; trying again`);
          nextAt = ctx.now() + options.baseMs;
        })
        .finally(() => {
          running = false;
        });
    },
  };
}

export type BatchSender = ReturnType<typeof createBatchSender>;
