import type { Log } from '../log';
import type { Clock, Durability, Storage } from '../shared/context';
import type { Channel } from './channel';
import { createBatchSender, type BatchSenderHooks, type BatchSenderOptions, type BatchStep } from './batch-sender';
import { deliverJournal } from './deliver-journal';

/**
 * The sync worker's journal part (contract §14): one batch to the hub at a time, when the hub takes journals
 * (`journal.import` in its capabilities; a plain v3 upstream, or a hub without it, gets nothing). Its waits are
 * every batch sender's (batch-sender.ts); a refused journal is kept in the status until the hub takes it again.
 */

export interface JournalSenderStatus {
  /** the upstream takes journals (null: not known yet) */
  accepted: boolean | null;
  /** the hub refused the journal for good (JOURNAL_CHAIN_BROKEN …): nothing goes until someone acts */
  refused: { code: string; message: string } | null;
}

export type JournalSenderHooks = BatchSenderHooks;

export function createJournalSender(
  ctx: Storage & Clock & Durability,
  channel: Channel,
  options: BatchSenderOptions,
  hooks: JournalSenderHooks,
  logger: Log,
) {
  let refused: JournalSenderStatus['refused'] = null;

  async function send(): Promise<BatchStep> {
    const outcome = await deliverJournal(ctx, channel);
    switch (outcome.kind) {
      case 'sent':
        refused = null;
        return outcome;
      case 'rewound':
        logger.warn({ confirmedSeq: outcome.confirmedSeq }, 'the hub holds less of the journal than it confirmed: sending again from there');
        return { kind: 'again' };
      case 'refused':
        if (refused?.code !== outcome.code) logger.error({ code: outcome.code, reason: outcome.message }, 'the hub refuses this terminal\'s journal: it waits until someone acts');
        refused = { code: outcome.code, message: outcome.message };
        return { kind: 'refused' };
      default:
        return outcome;
    }
  }

  const sender = createBatchSender(ctx, options, hooks, logger, 'journal', send);
  return {
    status: (): JournalSenderStatus => ({ accepted: sender.accepted(), refused }),
    offered: sender.offered,
    due: sender.due,
    start: sender.start,
  };
}

export type JournalSender = ReturnType<typeof createJournalSender>;
