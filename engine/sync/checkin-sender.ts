import type { Log } from '../log';
import { CHECKIN_IMPORT_LIMIT, type HubCheckinImportAnswer, type WireCheckin } from '../contract/hub-checkins';
import type { Clock, Durability, Storage } from '../shared/context';
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

export interface CheckinSenderHooks {
  answered(now: number): void;
  failed(reason: string, keyRejected?: boolean): void;
  rediscover(): void;
}

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

/** How long a refused batch waits, in base steps, before it is offered again. */
const REFUSED_STEPS = 60;

/** The worker's check-in part: like the journal's (journal-sender.ts), one batch at a time through the same channel. */
export function createCheckinSender(
  ctx: Storage & Clock & Durability,
  channel: Channel,
  options: { baseMs: number; gatherMs: number; gate: () => number },
  hooks: CheckinSenderHooks,
  logger: Log,
) {
  const status: CheckinSenderStatus = { accepted: null };
  let running = false;
  let nextAt = 0;

  function record(outcome: CheckinOutcome, startedAt: number): void {
    const now = ctx.now();
    switch (outcome.kind) {
      case 'idle':
        nextAt = startedAt + options.gatherMs;
        return;
      case 'sent':
        hooks.answered(now);
        nextAt = outcome.full ? 0 : startedAt + options.gatherMs;
        return;
      case 'retry':
        if (outcome.refusedFor === true) {
          logger.error({ reason: outcome.reason }, 'the hub refuses this gate\'s check-ins: they wait and are offered again');
          hooks.answered(now);
          nextAt = now + REFUSED_STEPS * options.baseMs;
          return;
        }
        hooks.failed(outcome.reason, outcome.keyRejected);
        if (outcome.rediscover === true) {
          status.accepted = null;
          hooks.rediscover();
        }
        nextAt = Math.max(now + options.baseMs, options.gate());
        return;
    }
  }

  return {
    status: (): CheckinSenderStatus => ({ ...status }),
    /** what the upstream's capabilities said */
    offered(accepted: boolean): void {
      status.accepted = accepted;
    },
    /** when a batch may start next (undefined: the upstream takes no check-ins, or one is on its way) */
    due(): number | undefined {
      return status.accepted === true && !running ? nextAt : undefined;
    },
    /** starts a batch when one may start at `now`; answers its promise (undefined: none started) */
    start(now: number): Promise<void> | undefined {
      if (status.accepted !== true || running || now < nextAt) return undefined;
      running = true;
      return deliverCheckins(ctx, channel)
        .then((outcome) => record(outcome, now))
        .catch((error: unknown) => {
          logger.error({ err: error }, 'check-in delivery failed; trying again');
          nextAt = ctx.now() + options.baseMs;
        })
        .finally(() => {
          running = false;
        });
    },
  };
}

export type CheckinSender = ReturnType<typeof createCheckinSender>;
