import type { Log } from '../log';
import { CHECKIN_IMPORT_LIMIT, type HubCheckinImportAnswer, type WireCheckin } from '../contract/hub-checkins';
import type { Clock, Durability, Storage } from '../shared/context';
import { createBatchSender, type BatchSenderHooks, type BatchSenderOptions, type BatchStep } from './batch-sender';
import type { Channel } from './channel';
import { refused } from './refusal';
import { dataOf, errorOf } from './upstream';

/**
 * A gate's offline check-ins on their way to the hub (issue #26, contract §15): the check-ins decided here while the
 * hub could not be asked (synced = 0), in seq order, up to CHECKIN_IMPORT_LIMIT per POST /hub/checkins/import, one
 * batch at a time, through the worker's channel and retry rules. The hub records every one (never refuses one after
 * the fact) and is idempotent by the check-ins' ids, so a lost answer is simply sent again; they are marked synced
 * when the hub answers — exactly once at the hub. Only to a hub offering `checkins`.
 */

export interface CheckinSenderStatus {
  /** the hub takes check-ins (null: not known yet) */
  accepted: boolean | null;
}

export type CheckinSenderHooks = BatchSenderHooks;

export type CheckinOutcome =
  | { readonly kind: 'idle' }
  | { readonly kind: 'sent'; readonly count: number; readonly full: boolean }
  | { readonly kind: 'retry'; readonly reason: string; readonly keyRejected?: boolean; readonly rediscover?: boolean; readonly refusedFor?: boolean };

/** One batch: the oldest check-ins not at the hub yet, sent, and marked synced once the hub answered. */
export async function deliverCheckins(ctx: Storage & Durability, hub: Channel, limit: number = CHECKIN_IMPORT_LIMIT): Promise<CheckinOutcome> {
  const rows = await ctx.store.repos.checkins.unsynced(Math.min(limit, CHECKIN_IMPORT_LIMIT));
  if (rows.length === 0) return { kind: 'idle' };
  // the hub learns of no check-in this gate could still lose at a power cut
  await ctx.whenDurable();
  const checkins: WireCheckin[] = rows.map((row) => ({
    id: row.id, code: row.ticketCode, occurrenceId: row.occurrenceId, direction: row.direction, gate: row.gate, at: row.at, ...(row.orderId !== '' && { orderId: row.orderId }),
  }));
  const answer = await hub.post('/hub/checkins/import', { checkins }, { repeatable: true });
  const results = answer.status === 200 ? dataOf<HubCheckinImportAnswer>(answer)?.results : undefined;
  if (Array.isArray(results)) {
    await ctx.store.transaction(async (tx) => {
      await tx.checkins.markSynced(checkins.map((checkin) => checkin.id));
    });
    return { kind: 'sent', count: checkins.length, full: checkins.length >= limit };
  }
  if (answer.status === 404 && errorOf(answer)?.code !== 'INSUFFICIENT_PERMISSIONS') return { kind: 'retry', reason: 'the upstream no longer takes check-ins', rediscover: true };
  const outcome = refused(answer);
  if (outcome.kind === 'retry') return { kind: 'retry', reason: `check-ins: ${outcome.reason}`, ...(outcome.keyRejected === true && { keyRejected: true }) };
  // a refusal of the whole batch (a hub that cannot read it): it waits, and is offered again later
  return { kind: 'retry', reason: `check-ins refused by the hub: ${outcome.kind === 'conflict' ? outcome.code : 'unexpected answer'}`, refusedFor: true };
}

/** The worker's check-in part: like the journal's (journal-sender.ts), one batch at a time through the same channel. */
export function createCheckinSender(
  ctx: Storage & Clock & Durability,
  channel: Channel,
  options: BatchSenderOptions,
  hooks: CheckinSenderHooks,
  logger: Log,
) {
  async function send(): Promise<BatchStep> {
    const outcome = await deliverCheckins(ctx, channel);
    if (outcome.kind === 'sent') return { kind: 'sent', full: outcome.full };
    if (outcome.kind === 'retry' && outcome.refusedFor === true) {
      logger.error({ reason: outcome.reason }, 'the hub refuses this gate\'s check-ins: they wait and are offered again');
      return { kind: 'refused' };
    }
    return outcome;
  }

  const sender = createBatchSender(ctx, options, hooks, logger, 'check-in', send);
  return {
    status: (): CheckinSenderStatus => ({ accepted: sender.accepted() }),
    offered: sender.offered,
    due: sender.due,
    start: sender.start,
  };
}

export type CheckinSender = ReturnType<typeof createCheckinSender>;
