import { EngineError } from '../domain/errors';
import { immediate } from '../store/db';
import type { OutboxRow } from '../store/outbox-repo';
import type { SyncStatus } from '../sync/worker';
import type { EngineContext } from './context';

/** GET /sync/status and the conflict inbox's two actions: retry, or mark resolved with a note. */

export interface SyncSource {
  readonly url: string;
  status(): SyncStatus;
}

export function syncStatus(ctx: EngineContext, worker: SyncSource | undefined) {
  const live = worker?.status();
  return {
    upstream: worker?.url ?? null,
    online: live?.online ?? null,
    lastSuccessAt: live?.lastSuccessAt ?? null,
    lastError: live?.lastError ?? null,
    waiting: ctx.outbox.waiting(),
    conflicts: ctx.outbox.conflicts().map(conflictView),
  };
}

export function retryConflict(ctx: EngineContext, id: number) {
  return immediate(ctx.db, () => {
    if (!ctx.outbox.requeue(id)) throw notAConflict(ctx, id);
    return entryView(ctx, id);
  });
}

export function resolveConflict(ctx: EngineContext, id: number, note: string) {
  return immediate(ctx.db, () => {
    if (!ctx.outbox.resolve(id, note)) throw notAConflict(ctx, id);
    return entryView(ctx, id);
  });
}

function notAConflict(ctx: EngineContext, id: number): EngineError {
  const entry = ctx.outbox.get(id);
  if (!entry) return new EngineError('RESOURCE_NOT_FOUND', { param: 'id' });
  return new EngineError('INVALID_FIELD_VALUE', { param: 'id', details: { reason: 'not_in_conflict', state: entry.state } });
}

function entryView(ctx: EngineContext, id: number) {
  const entry = ctx.outbox.get(id);
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
