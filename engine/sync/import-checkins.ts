import type { HubCheckinImportBody, HubCheckinImportAnswer } from '../contract/hub-checkins';
import { recordCheckInIn } from '../checkins/check-in';
import { duplicateEntries, presenceOfHistory } from '../checkins/timeline';
import { normalizeTicketCode } from '../domain/checkin';
import { EngineError } from '../domain/errors';
import type { Clock, Durability, Storage } from '../shared/context';

/**
 * POST /hub/checkins/import (issue #26, hub only): a terminal's offline check-ins, each recorded as decided there —
 * never refused after the fact — and idempotent by its id (a batch sent again after a lost answer records nothing
 * twice). An "in" of a ticket that was inside at that time (admitted at another gate, no "out" between — judged by
 * when the check-ins happened, checkins/timeline.ts, not by when the hub heard of them) is a duplicate entry:
 * recorded too, and a DUPLICATE_ENTRY conflict names both entries (sync/checkin-conflicts.ts).
 * `source` is the terminal (its sync key's owner). One transaction for the batch; the answer goes once it is on
 * the disk.
 */
export async function importCheckins(ctx: Storage & Clock & Durability, source: string, body: HubCheckinImportBody): Promise<HubCheckinImportAnswer> {
  const now = ctx.now();
  // one spelling of time (UTC, milliseconds), so a ticket's check-ins sort by when they happened; a time the schema's
  // format lets through but no clock shows (a leap second, 23:59:60) is the client's mistake, not a 5xx
  const times = body.checkins.map((checkin, index) => {
    const at = new Date(checkin.at);
    if (Number.isNaN(at.getTime())) throw new EngineError('INVALID_FIELD_VALUE', { param: `checkins[${index}].at`, details: { reason: 'not_a_time' } });
    return at.toISOString();
  });
  const results = await ctx.store.transaction(async (tx) => {
    const recorded: { id: string; recorded: boolean }[] = [];
    const tickets = new Set<string>();
    const codeOf = (code: string): string => normalizeTicketCode(code) ?? code;
    // every ticket's lock first, in one order: two terminals' batches naming the same tickets wait for each other
    // rather than deadlock (each lock is taken again below, which a holder passes)
    for (const code of [...new Set(body.checkins.map((checkin) => codeOf(checkin.code)))].sort()) await tx.locks.ticket(code);
    for (const [index, checkin] of body.checkins.entries()) {
      const ticketCode = codeOf(checkin.code);
      // the ticket's order here (the terminal's order imported under its codes); else the one the terminal named
      const orderId = (await tx.checkins.ticket(ticketCode))?.orderId ?? checkin.orderId ?? '';
      const at = times[index] ?? checkin.at;
      const row = { id: checkin.id, ticketCode, orderId, occurrenceId: checkin.occurrenceId, direction: checkin.direction, gate: checkin.gate, at, source, synced: true };
      const isNew = (await recordCheckInIn(tx, row)).recorded;
      recorded.push({ id: checkin.id, recorded: isNew });
      if (isNew) tickets.add(ticketCode);
    }
    // where each ticket is and its second entries, judged by when things happened at the doors, once the whole batch
    // is in (an exit later in the batch may sit between two entries): an entry recorded now after one with no exit
    // between, or before one
    const fresh = new Set(recorded.filter((one) => one.recorded).map((one) => one.id));
    const duplicates = new Set<string>();
    for (const ticketCode of tickets) {
      const orderHere = (await tx.checkins.ticket(ticketCode))?.orderId;
      const history = await tx.checkins.history(ticketCode);
      // where the ticket is: its latest check-in in time (an exit arriving late does not let it in twice)
      const presence = presenceOfHistory(history);
      if (presence) await tx.checkins.setPresence(ticketCode, presence);
      for (const { first, second } of duplicateEntries(history, fresh)) {
        await tx.checkinConflicts.add({
          checkinId: second.id, ticketCode, orderId: orderHere ?? (second.orderId || first.orderId), occurrenceId: second.occurrenceId,
          firstGate: first.gate, firstAt: first.at, secondGate: second.gate, secondAt: second.at, source: second.source,
        }, now);
        for (const id of [first.id, second.id]) if (fresh.has(id)) duplicates.add(id);
      }
    }
    return recorded.map((one) => ({ ...one, duplicateEntry: one.recorded && duplicates.has(one.id) }));
  });
  await ctx.whenDurable();
  return { results };
}
