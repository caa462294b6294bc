import { EngineError } from '../domain/errors';
import type { CheckinConflictRow } from '../store/checkin-conflict-repo';
import type { Clock, Storage } from '../shared/context';

/**
 * A hub's DUPLICATE_ENTRY conflicts (issue #26, contract §15): a ticket that a terminal admitted offline while it
 * was inside already at the hub (another gate let it in, no "out" between). Both check-ins are recorded — nothing is
 * refused after the fact — and the second entry is listed in GET /sync/status `conflicts` with kind `checkin`
 * until staff resolve it with a note. Never retried: there is nothing to send again.
 */

export const DUPLICATE_ENTRY = 'DUPLICATE_ENTRY';

/** The conflict as GET /sync/status lists it: the ticket, both gates and both times in its message. */
export function checkinConflictView(row: CheckinConflictRow) {
  return {
    id: row.id,
    kind: 'checkin' as const,
    orderId: row.orderId,
    code: DUPLICATE_ENTRY,
    message: `Ticket ${row.ticketCode} was admitted twice: at gate ${row.firstGate} at ${row.firstAt}, and again at gate ${row.secondGate} at ${row.secondAt}` +
      `${row.source === null ? '' : ` (terminal ${row.source}, offline)`} with no exit between.`,
    at: new Date(row.createdAt).toISOString(),
    attempts: 0,
  };
}

/** The open DUPLICATE_ENTRY conflicts, oldest first. */
export async function openCheckinConflicts(ctx: Storage) {
  return (await ctx.store.repos.checkinConflicts.open()).map(checkinConflictView);
}

/** POST /sync/checkin-conflicts/{id}/resolve: marks it resolved with the note (404 unknown; 400 resolved already). */
export async function resolveCheckinConflict(ctx: Storage & Clock, id: number, note: string) {
  return ctx.store.transaction(async (tx) => {
    const resolved = await tx.checkinConflicts.resolve(id, note, ctx.now());
    const row = await tx.checkinConflicts.get(id);
    if (!row) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'id' });
    if (!resolved) throw new EngineError('INVALID_FIELD_VALUE', { param: 'id', details: { reason: 'not_in_conflict', state: row.state } });
    return { ...checkinConflictView(row), state: row.state, resolvedNote: row.resolvedNote };
  });
}
