import { EngineError } from '../domain/errors';
import type { OutboxRow } from '../store/outbox-repo';
import type { SyncStatus } from './worker';
import type { Clock, Storage } from '../shared/context';
import type { Repos } from '../store/port';
import { holdingRows } from '../allocations/holdings-view';
import { journalCursor } from './deliver-journal';
import { openCheckinConflicts } from './checkin-conflicts';

/** GET /sync/status and the conflict inbox's two actions: retry, or mark resolved with a note. */

export interface SyncSource {
  readonly url: string;
  status(): SyncStatus;
}

/** The delivery rate is measured over this last stretch of time. */
export const RATE_WINDOW_MS = 60_000;

/**
 * `inbox`: whether the caller may see the conflict inbox and the holdings (scope `sync`); without it (the
 * kiosk's `sync:status`) both come back empty — the header needs the connection and the backlog, not other
 * tills' refused orders.
 */
export async function syncStatus(ctx: Storage & Clock, worker: SyncSource | undefined, inbox = true) {
  const live = worker?.status();
  const now = ctx.now();
  const outbox = ctx.store.repos.outbox;
  const waiting = await outbox.waiting();
  const oldest = await outbox.oldestWaiting();
  const recent = await outbox.deliveredSince(now - RATE_WINDOW_MS);
  // Entries per second since the first delivery of the window (at least a second): a backlog that began
  // draining a moment ago shows its real pace, not a minute's average.
  const rate = recent.n === 0 || recent.first === null ? 0 : recent.n / Math.max(1, (now - recent.first) / 1000);
  return {
    upstream: worker?.url ?? null,
    upstreamKind: live?.upstreamKind ?? null,
    online: live?.online ?? null,
    lastSuccessAt: live?.lastSuccessAt ?? null,
    lastError: live?.lastError ?? null,
    keyRejected: live?.keyRejected ?? false,
    waiting,
    oldestWaitingSeconds: oldest === undefined ? null : Math.max(0, Math.floor((now - oldest) / 1000)),
    deliveryRate: Math.round(rate * 10) / 10,
    estimatedSecondsLeft: waiting === 0 ? 0 : rate > 0 ? Math.ceil(waiting / rate) : null,
    // a hub's DUPLICATE_ENTRY conflicts (issue #26) after the outbox's: kind `checkin` tells them apart
    conflicts: inbox ? [...(await outbox.conflicts()).map(conflictView), ...(await openCheckinConflicts(ctx))] : [],
    journal: await journalStatus(ctx, worker),
    holdings: inbox ? await holdingRows(ctx) : [],
    checkins: { waiting: worker === undefined ? 0 : await ctx.store.repos.checkins.waiting() },
  };
}

/**
 * The journal's way to the hub (contract §14): how many entries the hub has not confirmed yet (0 on an engine with
 * no upstream: nothing waits to go anywhere), the last seq it confirmed, whether the upstream takes journals (a
 * plain v3 upstream does not: then nothing is sent) and a refusal for good.
 */
async function journalStatus(ctx: Storage, worker: SyncSource | undefined) {
  const confirmedSeq = await journalCursor(ctx);
  const live = worker?.status().journal;
  return {
    waiting: worker === undefined ? 0 : (await ctx.store.repos.journalSync.after(confirmedSeq)).n,
    confirmedSeq,
    accepted: live?.accepted ?? null,
    refused: live?.refused ?? null,
  };
}

export async function retryConflict(ctx: Storage, id: number) {
  return ctx.store.transaction(async (tx) => {
    if (!(await tx.outbox.requeue(id))) throw await notAConflict(tx, id);
    return entryView(tx, id);
  });
}

export async function resolveConflict(ctx: Storage, id: number, note: string) {
  return ctx.store.transaction(async (tx) => {
    if (!(await tx.outbox.resolve(id, note))) throw await notAConflict(tx, id);
    return entryView(tx, id);
  });
}

async function notAConflict(tx: Pick<Repos, 'outbox'>, id: number): Promise<EngineError> {
  const entry = await tx.outbox.get(id);
  if (!entry) return new EngineError('RESOURCE_NOT_FOUND', { param: 'id' });
  return new EngineError('INVALID_FIELD_VALUE', { param: 'id', details: { reason: 'not_in_conflict', state: entry.state } });
}

async function entryView(tx: Pick<Repos, 'outbox'>, id: number) {
  const entry = await tx.outbox.get(id);
  if (!entry) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'id' });
  return { ...conflictView(entry), state: entry.state, resolvedNote: entry.resolvedNote };
}

function conflictView(entry: OutboxRow) {
  return {
    id: entry.id,
    kind: entry.kind,
    orderId: entry.orderId,
    code: entry.conflictCode ?? '',
    message: entry.conflictMessage ?? '',
    at: entry.conflictAt === null ? null : new Date(entry.conflictAt).toISOString(),
    attempts: entry.attempts,
  };
}
