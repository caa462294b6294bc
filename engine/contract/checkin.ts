import { Type, type Static } from 'typebox';
import { Id, LIMITS, Timestamp } from './common';

/**
 * Checking tickets at the door (issue #26, contract §15): a check-in's request and answer, and a show's counts.
 * One schema each for validation, OpenAPI and the UI's types.
 */

const strict = { additionalProperties: false } as const;

/** a gate's name as staff type it: 1–40 characters, none of them a control character */
const GATE_NAME = { minLength: 1, maxLength: 40, pattern: '^[^\\u0000-\\u001F\\u007F]+$' } as const;
export const GateName = Type.String({ ...GATE_NAME, description: 'the gate\'s name (no control characters)' });

export const CheckinBody = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      maxLength: 600,
      description: 'the signed code of the ticket\'s QR (`K1.…`) or its 20-character code (case, spaces and hyphens do not matter; I and L read as 1, O as 0)',
    }),
    occurrenceId: Type.Optional(Type.String({
      minLength: 1,
      maxLength: LIMITS.maxIdLength,
      description: 'the show this gate admits to: a ticket of another show is 409 TICKET_WRONG_OCCURRENCE',
    })),
    direction: Type.Optional(Type.Union([Type.Literal('in'), Type.Literal('out')], { description: '"in" (the default) or "out" (leaving, for re-entry)' })),
    gate: Type.Optional(Type.String({ ...GATE_NAME, description: 'the gate\'s name (no control characters); default "main"' })),
  },
  strict,
);
export type CheckinBody = Static<typeof CheckinBody>;

export const CheckedInTicket = Type.Object({
  code: Type.String({ description: 'the ticket\'s 20-character code (also when a signed code was scanned)' }),
  eventName: Type.String(),
  occurrenceId: Type.String(),
  startsAt: Type.String({ description: 'the show\'s start as the catalog has it (ISO 8601)' }),
  area: Type.String({ description: 'the area\'s name in the catalog' }),
  seat: Type.Optional(Type.String({ description: 'the seat\'s label, in an assigned-seat area' })),
});
export type CheckedInTicket = Static<typeof CheckedInTicket>;

export const CheckinResult = Type.Object({
  result: Type.Union([Type.Literal('admitted'), Type.Literal('left')], { description: '"admitted": an accepted "in"; "left": an accepted "out"' }),
  ticket: CheckedInTicket,
  at: Timestamp,
  gate: Type.String(),
});
export type CheckinResult = Static<typeof CheckinResult>;

export const CheckinCounts = Type.Object({
  admitted: Type.Integer({ minimum: 0, description: 'tickets of the show admitted at least once' }),
  inside: Type.Integer({ minimum: 0, description: 'tickets of the show inside now (admitted and not gone out)' }),
  capacity: Type.Integer({ minimum: 0, description: 'the show\'s places: the capacity of its inventory' }),
  sold: Type.Integer({ minimum: 0, description: 'tickets of the show sold in orders not cancelled' }),
});
export type CheckinCounts = Static<typeof CheckinCounts>;

export const OccurrenceCheckinParams = Type.Object({ id: Id }, strict);
