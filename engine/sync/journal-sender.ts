import type { Log } from '../log';
import type { Clock, Durability, Storage } from '../shared/context';
import type { Channel } from './channel';
import { deliverJournal, type JournalOutcome } from './deliver-journal';

/**
 * The sync worker's journal part (contract §14): one batch to the hub at a time, when the hub takes journals
 * (`journal.import` in its capabilities; a plain v3 upstream, or a hub without it, gets nothing). Its waits follow
 * the worker's: every request goes through the same channel and retry rules as the orders; a batch that is not full
 * starts at most once every `gatherMs`, and a look that finds nothing to send waits as long before the next.
 */

export interface JournalSenderStatus {
  /** the upstream takes journals (null: not known yet) */
  accepted: boolean | null;
  /** the hub refused the journal for good (JOURNAL_CHAIN_BROKEN …): nothing goes until someone acts */
  refused: { code: string; message: string } | null;
}

export interface JournalSenderHooks {
  /** the upstream answered (progress) */
  answered(now: number): void;
  /** it did not; `keyRejected`: the sync key is refused */
  failed(reason: string, keyRejected?: boolean): void;
  /** ask the upstream what it is again */
  rediscover(): void;
}

/** How long a refused journal waits, in base steps, before it is offered again (staff may have fixed the hub). */
const REFUSED_STEPS = 60;

export function createJournalSender(
  ctx: Storage & Clock & Durability,
  channel: Channel,
  options: { baseMs: number; gatherMs: number; gate: () => number },
  hooks: JournalSenderHooks,
  logger: Log,
) {
  const status: JournalSenderStatus = { accepted: null, refused: null };
  let running = false;
  let nextAt = 0;

  function record(outcome: JournalOutcome, startedAt: number): void {
    const now = ctx.now();
    switch (outcome.kind) {
      case 'idle':
        nextAt = startedAt + options.gatherMs;
        return;
      case 'sent':
        status.refused = null;
        hooks.answered(now);
        nextAt = outcome.full ? 0 : startedAt + options.gatherMs;
        return;
      case 'rewound':
        logger.warn({ confirmedSeq: outcome.confirmedSeq }, 'the hub holds less of the journal than it confirmed: sending again from there');
        hooks.answered(now);
        nextAt = 0;
        return;
      case 'refused':
        if (status.refused?.code !== outcome.code) logger.error({ code: outcome.code, reason: outcome.message }, 'the hub refuses this terminal\'s journal: it waits until someone acts');
        status.refused = { code: outcome.code, message: outcome.message };
        hooks.answered(now);
        nextAt = now + REFUSED_STEPS * options.baseMs;
        return;
      case 'retry':
        hooks.failed(outcome.reason, outcome.keyRejected);
        if (outcome.rediscover) {
          status.accepted = null;
          hooks.rediscover();
        }
        nextAt = Math.max(now + options.baseMs, options.gate());
        return;
    }
  }

  return {
    status: (): JournalSenderStatus => ({ ...status }),
    /** what the upstream's capabilities said */
    offered(accepted: boolean): void {
      status.accepted = accepted;
    },
    /** when a batch may start next (undefined: the upstream takes no journal, or one is on its way) */
    due(): number | undefined {
      return status.accepted === true && !running ? nextAt : undefined;
    },
    /** starts a batch when one may start at `now`; answers its promise (undefined: none started) */
    start(now: number): Promise<void> | undefined {
      if (status.accepted !== true || running || now < nextAt) return undefined;
      running = true;
      return deliverJournal(ctx, channel)
        .then((outcome) => record(outcome, now))
        .catch((error: unknown) => {
          logger.error({ err: error }, 'journal delivery failed; trying again');
          nextAt = ctx.now() + options.baseMs;
        })
        .finally(() => {
          running = false;
        });
    },
  };
}

export type JournalSender = ReturnType<typeof createJournalSender>;
