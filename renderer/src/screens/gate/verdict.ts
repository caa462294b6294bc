import type { CheckinResult } from '../../api/types';
import type { GateKey, GateTranslate } from '../../i18n/gate-words';

/** What the engine said about one scan: its answer (201), or its refusal in the error envelope (or no answer at all). */
export type Outcome =
  | { kind: 'answer'; answer: CheckinResult }
  | { kind: 'refused'; code: string; details: Record<string, unknown> };

/** A verdict as door staff see it: the first word (at a glance), the reason in words, and whether the person goes in. */
export interface Verdict {
  ok: boolean;
  word: string;
  reason: string;
  /** the ticket's show, area and seat, when the engine named the ticket */
  ticket?: string;
}

/** How the screen shows times: a start as "Sun 30 Nov 20:00" and a clock time "19:42", on the venue's clock. */
export interface VerdictClock {
  when(iso: string, occurrenceId?: string): string;
  time(iso: string): string;
}

const REFUSALS: Readonly<Record<string, readonly [GateKey, GateKey | null]>> = {
  TICKET_CANCELLED: ['gate.cancelled', null],
  TICKET_INVALID: ['gate.invalid', null],
  // a 20-character code this engine does not know is "not valid" for the person at the door, like a bad signature
  TICKET_NOT_FOUND: ['gate.invalid', null],
  NOT_CHECKED_IN: ['gate.notInside', 'gate.notInsideReason'],
  RESOURCE_NOT_FOUND: ['gate.unknownShow', 'gate.unknownShowReason'],
};

/**
 * The words for an outcome (contract §9: the text starts with Admitted, Already inside, Wrong show, Cancelled or
 * Not valid). Times are only formatted here, never computed.
 */
export function verdictOf(outcome: Outcome, t: GateTranslate, clock: VerdictClock): Verdict {
  if (outcome.kind === 'answer') {
    const { ticket } = outcome.answer;
    const place = ticket.seat === undefined ? ticket.area : `${ticket.area}, ${t('gate.seat', { seat: ticket.seat })}`;
    const about = `${ticket.eventName} · ${clock.when(ticket.startsAt, ticket.occurrenceId)} · ${place}`;
    return outcome.answer.result === 'admitted'
      ? { ok: true, word: t('gate.admitted'), reason: '', ticket: about }
      : { ok: true, word: t('gate.left'), reason: t('gate.leftReason'), ticket: about };
  }
  const { code, details } = outcome;
  const text = (name: string) => (typeof details[name] === 'string' ? details[name] : '');
  if (code === 'ALREADY_CHECKED_IN') {
    const at = text('at');
    return { ok: false, word: t('gate.already'), reason: at ? t('gate.alreadyReason', { time: clock.time(at), gate: text('gate') }) : '' };
  }
  if (code === 'TICKET_WRONG_OCCURRENCE') {
    const startsAt = text('startsAt');
    return { ok: false, word: t('gate.wrongShow'), reason: startsAt ? t('gate.wrongShowReason', { when: clock.when(startsAt, text('occurrenceId') || undefined) }) : '' };
  }
  const refusal = REFUSALS[code];
  if (refusal) return { ok: false, word: t(refusal[0]), reason: refusal[1] ? t(refusal[1]) : '' };
  // no answer, or one the gate cannot read (a network failure, a 5xx): the ticket is checked again, never let in
  return { ok: false, word: t('gate.failed'), reason: t('gate.failedReason') };
}
