import { EngineError } from './errors';

/**
 * Checking tickets at the door (issue #26, contract §15), the pure rules: how a typed or scanned 20-character
 * code is made comparable, and what a check-in decides from where the ticket is now (inside or not) and the
 * direction asked for. The ticket's validity (signature, known code, cancelled, right show) is decided before this.
 */

export type CheckinDirection = 'in' | 'out';
/** "admitted": an accepted "in"; "left": an accepted "out" (our word; the contract names only the first) */
export type CheckinOutcome = 'admitted' | 'left';

/** the gate a check-in names when the request does not */
export const DEFAULT_GATE = 'main';

/** Where a ticket is now: the row of ticket_presence, if it was ever admitted. */
export interface Presence {
  readonly inside: boolean;
  /** when and where it went in last */
  readonly inAt: string;
  readonly gate: string;
}

/** Crockford base32 without I, L, O, U: the ticket codes' alphabet (engine/checkout/codes.ts). */
const TICKET_CODE = /^[0-9A-HJKMNP-TV-Z]{20}$/;

/**
 * A 20-character ticket code as typed or scanned, made comparable: upper case, spaces and hyphens removed, and
 * Crockford's look-alikes read as the digits they stand for (I and L as 1, O as 0). Undefined when what is left
 * is not 20 characters of the codes' alphabet (400 TICKET_INVALID).
 */
export function normalizeTicketCode(text: string): string | undefined {
  const code = text.replace(/[\s-]+/g, '').toUpperCase().replace(/[IL]/g, '1').replace(/O/g, '0');
  return TICKET_CODE.test(code) ? code : undefined;
}

/**
 * What a check-in of a valid ticket of the right show decides: an "in" is admitted unless the ticket is inside
 * (409 ALREADY_CHECKED_IN with when and where it went in), an "out" leaves only a ticket that is inside
 * (409 NOT_CHECKED_IN). Throws the refusal.
 */
export function decidePresence(presence: Presence | undefined, direction: CheckinDirection): CheckinOutcome {
  const inside = presence?.inside === true;
  if (direction === 'in') {
    if (presence && inside) throw new EngineError('ALREADY_CHECKED_IN', { details: { at: presence.inAt, gate: presence.gate } });
    return 'admitted';
  }
  if (!inside) throw new EngineError('NOT_CHECKED_IN');
  return 'left';
}

/**
 * Where a ticket is after an accepted check-in (what recording it writes): an "in" makes it inside since `at` at
 * `gate`; an "out" leaves it outside, keeping when and where it last went in.
 */
export function presenceAfter(presence: Presence | undefined, direction: CheckinDirection, at: string, gate: string): Presence {
  if (direction === 'in') return { inside: true, inAt: at, gate };
  return { inside: false, inAt: presence?.inAt ?? at, gate: presence?.gate ?? gate };
}
