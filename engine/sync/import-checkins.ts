import type { HubCheckinImportBody, HubCheckinImportAnswer } from '../contract/hub-checkins';
import { recordCheckInIn } from '../checkins/check-in';
import { normalizeTicketCode } from '../domain/checkin';
import type { Clock, Durability, Storage } from '../shared/context';

/**
 * POST /hub/checkins/import (issue #26, hub only): a terminal's offline check-ins, each recorded as decided there —
 * never refused after the fact — and idempotent by its id (a batch sent again after a lost answer records nothing
 * twice). An "in" of a ticket that was inside here already (admitted at another gate, no "out" between) is a
 * duplicate entry: recorded too, and a DUPLICATE_ENTRY conflict names both entries (sync/checkin-conflicts.ts).
 * `source` is the terminal (its sync key's owner). One transaction for the batch; the answer goes once it is on
 * the disk.
 */
export async function importCheckins(ctx: Storage & Clock & Durability, source: string, body: HubCheckinImportBody): Promise<HubCheckinImportAnswer> {
  const now = ctx.now();
  const results = await ctx.store.transaction(async (tx) => {
    const answered: HubCheckinImportAnswer['results'] = [];
    for (const checkin of body.checkins) {
      const ticketCode = normalizeTicketCode(checkin.code) ?? checkin.code;
      // the ticket's order here (the terminal's order imported under its codes); else the one the terminal named
      const orderId = (await tx.checkins.ticket(ticketCode))?.orderId ?? checkin.orderId ?? '';
      const row = { id: checkin.id, ticketCode, orderId, occurrenceId: checkin.occurrenceId, direction: checkin.direction, gate: checkin.gate, at: checkin.at, source, synced: true };
      const recorded = await recordCheckInIn(tx, row);
      if (recorded.wasInside && recorded.before !== undefined) {
        await tx.checkinConflicts.add({
          checkinId: checkin.id, ticketCode, orderId, occurrenceId: checkin.occurrenceId,
          firstGate: recorded.before.gate, firstAt: recorded.before.inAt, secondGate: checkin.gate, secondAt: checkin.at, source,
        }, now);
      }
      answered.push({ id: checkin.id, recorded: recorded.recorded, duplicateEntry: recorded.wasInside });
    }
    return answered;
  });
  await ctx.whenDurable();
  return { results };
}
