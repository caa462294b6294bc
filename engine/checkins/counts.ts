import type { CheckinCounts } from '../contract/checkin';
import { EngineError } from '../domain/errors';
import type { Storage } from '../shared/context';
import type { CheckinHub } from './hub-port';

/**
 * GET /occurrences/{id}/checkins (issue #26, contract §15): a show's counts — `admitted` (its tickets admitted at
 * least once), `inside` (inside now), `capacity` (the places of its inventory on sale) and `sold` (its tickets in
 * orders not cancelled: the inventory's sold count). At a terminal with a hub (`hub`) the hub's counts while it
 * answers, this engine's own otherwise. 404 RESOURCE_NOT_FOUND (param id) for a show the catalog does not have.
 */
export async function checkinCounts(ctx: Storage, occurrenceId: string, hub?: CheckinHub): Promise<CheckinCounts> {
  if (hub !== undefined) {
    const remote = await hub.counts(occurrenceId);
    if (!('offline' in remote)) return remote;
  }
  const counts = await ctx.store.transaction(async (tx) => {
    if (!await tx.checkins.show(occurrenceId)) return undefined;
    return tx.checkins.counts(occurrenceId);
  }, { readOnly: true });
  if (!counts) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'id' });
  return counts;
}
