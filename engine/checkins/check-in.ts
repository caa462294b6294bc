import type { CheckinResult } from '../contract/checkin';
import { decidePresence, DEFAULT_GATE, presenceAfter, type CheckinDirection, type Presence } from '../domain/checkin';
import { EngineError } from '../domain/errors';
import type { NameLanguage } from '../domain/names';
import type { Clock, Durability, Storage, Syncing, TicketSigning } from '../shared/context';
import { uuidV7 } from '../shared/ids';
import type { CheckinRow } from '../store/checkin-repo';
import type { Tx } from '../store/port';
import type { CheckinHub } from './hub-port';
import { localizeCheckin } from './localize';
import { orderOfScanned, readTicketCode, type Scanned } from './read-code';

/**
 * POST /checkins (issue #26, contract §15): a ticket at the door. Decided in one short transaction that holds the
 * ticket's lock (Locks.ticket) from reading where the ticket is until its check-in is stored, so two gates — two
 * processes on one PostgreSQL database — never both admit it. Refused check-ins are not stored.
 */

/** A check-in as asked for (the request's body, and at a hub the terminal it came from). */
export interface CheckinRequest {
  readonly code: string;
  readonly occurrenceId?: string | undefined;
  readonly direction?: CheckinDirection | undefined;
  readonly gate?: string | undefined;
  /** made where the check-in is decided; given when a terminal asks its hub */
  readonly id?: string | undefined;
  /** at a hub: the terminal the check-in came from */
  readonly source?: string | undefined;
}

/** A check-in read and ready to decide: the code verified (outside the transaction: a key ring may read the store). */
export interface DecideInput {
  readonly id: string;
  readonly scanned: Scanned;
  readonly occurrenceId?: string | undefined;
  readonly direction: CheckinDirection;
  readonly gate: string;
  readonly source?: string | undefined;
}

/** A decision, its names as the catalog stores them, with what naming it in another language needs. */
export interface Decided {
  readonly result: CheckinResult;
  readonly eventId: string;
  readonly areaId: string | null;
}

type CheckInDeps = Storage & Clock & Syncing & Durability & TicketSigning;

/**
 * A check-in, answered in `language`. At a terminal with a hub (`hub`), the hub decides within the request and
 * its decision is recorded here as synced; when the hub is offline (or there is none) this engine decides alone.
 * A hub's refusal is thrown as it came. What this terminal knows and its hub may not yet (its sales and cancellations
 * reach the hub by sync, a moment later) is used first: a ticket whose order was cancelled here is refused here,
 * without asking; a ticket sold here is sent to the hub by its signed code, which the hub verifies by its signature
 * alone, so the hub decides it even while the order is still on its way (and every gate's answer comes from there); a
 * ticket with a check-in here that has not reached the hub yet (decided while the hub did not answer) is decided here.
 */
export async function checkIn(ctx: CheckInDeps, hub: CheckinHub | undefined, input: CheckinRequest, language: NameLanguage): Promise<CheckinResult> {
  const id = input.id ?? uuidV7();
  const direction = input.direction ?? 'in';
  const gate = input.gate ?? DEFAULT_GATE;
  let known: KnownHere | undefined;
  if (hub !== undefined) {
    // what this terminal knows that its hub may not yet: an order cancelled here is refused here
    known = await knownHere(ctx, input.code);
    if (known?.cancelled === true) throw new EngineError('TICKET_CANCELLED', { param: 'code' });
  }
  // a ticket this gate decided alone whose check-in has not reached the hub yet: the hub, not told, would let it in
  // again (or not out); this gate knows where it is, so it decides (and that check-in goes to the hub later too)
  if (hub !== undefined && known?.pending !== true) {
    // a ticket sold here goes to the hub by its signed code, whatever was typed: the hub checks it by its signature,
    // so it decides — one place for every gate — also before this terminal's order has reached it
    let code = known?.signedCode ?? input.code;
    let asked = await hub.checkIn({ id, code, occurrenceId: input.occurrenceId, direction, gate }, language);
    // a hub that cannot check this terminal's signature (its key not taken yet): asked again as the ticket was given
    if ('refused' in asked && asked.refused.code === 'TICKET_INVALID' && code !== input.code) {
      code = input.code;
      asked = await hub.checkIn({ id, code, occurrenceId: input.occurrenceId, direction, gate }, language);
    }
    if ('refused' in asked) throw asked.refused;
    if ('answer' in asked) {
      await recordHubAnswer(ctx, id, code, asked.answer, direction);
      return asked.answer;
    }
  }
  const scanned = known?.scanned ?? await readTicketCode(ctx, input.code);
  const decided = await ctx.store.transaction((tx) => decideCheckInIn(ctx, tx, { id, scanned, occurrenceId: input.occurrenceId, direction, gate, source: input.source }));
  // a person is let in on this answer: it is on the disk first
  await ctx.whenDurable();
  return localizeCheckin(ctx, decided, language);
}

/** A scanned code as this terminal knows it, read before its hub is asked. */
interface KnownHere {
  readonly scanned: Scanned;
  /** the signed code of a ticket sold (or imported) here */
  readonly signedCode: string | undefined;
  /** its order cancelled here, or its code on the revocation list */
  readonly cancelled: boolean;
  /** a check-in of it here that the hub does not have yet (decided while the hub did not answer) */
  readonly pending: boolean;
}

/** What this terminal knows of a scanned code; undefined when it cannot read it (the hub may know a key it does not). */
async function knownHere(ctx: Storage & TicketSigning, text: string): Promise<KnownHere | undefined> {
  let scanned: Scanned;
  try {
    scanned = await readTicketCode(ctx, text);
  } catch (error) {
    if (error instanceof EngineError) return undefined;
    throw error;
  }
  const { ticket, revoked, presence } = await ctx.store.repos.checkins.state(scanned.code);
  // a ticket never checked in here has no history to read
  const pending = presence !== undefined && (await ctx.store.repos.checkins.history(scanned.code)).some((checkin) => !checkin.synced);
  return { scanned, signedCode: ticket?.signedCode ?? undefined, cancelled: ticket?.status === 'cancelled' || revoked, pending };
}

/**
 * Decides a check-in in the caller's transaction and stores it when accepted: 404 TICKET_NOT_FOUND (a 20-character
 * code not sold here), 410 TICKET_CANCELLED (revoked, or its order cancelled here), 404 RESOURCE_NOT_FOUND (an
 * `occurrenceId` the catalog does not have), 409 TICKET_WRONG_OCCURRENCE, 409 ALREADY_CHECKED_IN, 409
 * NOT_CHECKED_IN. A signed code needs no ticket row: its signature was checked. Synced: with an upstream the
 * check-in still has to go there (0), without one there is nothing to send (1).
 */
export async function decideCheckInIn(ctx: Clock & Syncing, tx: Tx, input: DecideInput): Promise<Decided> {
  const code = input.scanned.code;
  await tx.locks.ticket(code);
  const { ticket: row, revoked, presence } = await tx.checkins.state(code);
  const signed = input.scanned.kind === 'signed' ? input.scanned.ticket : undefined;
  if (!row && !signed) throw new EngineError('TICKET_NOT_FOUND', { param: 'code' });
  // cancelled: its order cancelled here, or its code on the revocation list (a gate pulls the hub's)
  if (row?.status === 'cancelled' || revoked) throw new EngineError('TICKET_CANCELLED', { param: 'code' });
  const occurrenceId = signed?.occurrenceId ?? row?.occurrenceId ?? '';
  const show = await tx.checkins.show(occurrenceId);
  if (input.occurrenceId !== undefined && input.occurrenceId !== occurrenceId) {
    if (!await tx.checkins.show(input.occurrenceId)) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'occurrenceId' });
    throw new EngineError('TICKET_WRONG_OCCURRENCE', { param: 'occurrenceId', details: { occurrenceId, ...(show && { startsAt: show.startsAt }) } });
  }
  // a genuine ticket of a show this engine's catalog does not have: nothing to admit it to
  if (!show) throw new EngineError('TICKET_NOT_FOUND', { param: 'code', details: { reason: 'unknown_occurrence', occurrenceId } });
  const result = decidePresence(presence, input.direction);
  const at = new Date(ctx.now()).toISOString();
  const areaId = signed?.areaId ?? row?.areaId ?? null;
  const area = signed ? (await tx.checkins.area(occurrenceId, signed.areaId))?.area : row?.area;
  const seat = signed ? signed.seat : row?.seat ?? null;
  await tx.checkins.record(
    // the order as this engine has it (a hub imports a terminal's order under an id of its own); the signature's otherwise
    { id: input.id, ticketCode: code, orderId: row?.orderId ?? signed?.orderId ?? '', occurrenceId, direction: input.direction, gate: input.gate, at,
      source: input.source ?? null, synced: !ctx.syncing },
    presenceAfter(presence, input.direction, at, input.gate),
  );
  return {
    result: {
      result,
      ticket: { code, eventName: show.eventName, occurrenceId, startsAt: show.startsAt, area: area ?? '', ...(seat !== null && { seat }) },
      at,
      gate: input.gate,
    },
    eventId: show.eventId,
    areaId,
  };
}

/** What recordCheckInIn tells its caller: whether it stored anything. */
export interface Recorded {
  /** false: a check-in of this id was stored before (nothing written) */
  readonly recorded: boolean;
}

/**
 * Stores a check-in decided elsewhere (a hub's answer at its terminal, a terminal's offline check-in at its hub),
 * in the caller's transaction, and where the ticket is after it. Never refuses; idempotent by the check-in's id.
 * The ticket's presence follows this check-in: a hub's answer is the newest thing its terminal knows. A hub
 * recording a terminal's offline check-ins, which arrive late, sets it again from the ticket's history in time
 * order once the batch is in (sync/import-checkins.ts, timeline.ts).
 */
export async function recordCheckInIn(tx: Tx, row: CheckinRow): Promise<Recorded> {
  await tx.locks.ticket(row.ticketCode);
  const before: Presence | undefined = await tx.checkins.presence(row.ticketCode);
  return { recorded: await tx.checkins.record(row, presenceAfter(before, row.direction, row.at, row.gate)) };
}

/** A hub's decision, recorded here (synced): so this gate knows who is inside when it next decides alone. */
async function recordHubAnswer(ctx: Storage, id: string, scannedText: string, answer: CheckinResult, direction: CheckinDirection): Promise<void> {
  const code = answer.ticket.code;
  await ctx.store.transaction(async (tx) => {
    const orderId = (await tx.checkins.ticket(code))?.orderId ?? orderOfScanned(scannedText) ?? '';
    await recordCheckInIn(tx, { id, ticketCode: code, orderId, occurrenceId: answer.ticket.occurrenceId, direction, gate: answer.gate, at: answer.at, source: null, synced: true });
  });
}
