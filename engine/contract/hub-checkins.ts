import { Type, type Static } from 'typebox';
import { GateName } from './checkin';
import { Id, LIMITS, Timestamp } from './common';

/**
 * A hub's check-in endpoints for its terminals (issue #26, contract §15 and §10; scope `orders:import`, the sync
 * key's): the terminal's public keys at first contact, a check-in decided within a gate's request, offline
 * check-ins sent later, and a show's counts.
 */

const strict = { additionalProperties: false } as const;

/** the most check-ins per POST /hub/checkins/import */
export const CHECKIN_IMPORT_LIMIT = 500;

export const HubTicketKey = Type.Object({
  keyId: Type.String({ minLength: 1, maxLength: 64, description: 'the first 12 characters of base64url(SHA-256(raw public key))' }),
  publicKey: Type.String({ minLength: 1, maxLength: 128, description: 'base64url of the raw 32-byte Ed25519 public key' }),
  engine: Type.String({ minLength: 1, maxLength: 128, description: 'the terminal engine\'s id' }),
}, strict);
export type HubTicketKey = Static<typeof HubTicketKey>;

export const HubTicketKeysBody = Type.Object({ keys: Type.Array(HubTicketKey, { minItems: 1, maxItems: 100 }) }, strict);
export const HubTicketKeysAnswer = Type.Object({ learned: Type.Integer({ minimum: 0, description: 'keys this hub did not know before' }) });

const Direction = Type.Union([Type.Literal('in'), Type.Literal('out')]);
const CheckinId = Type.String({ minLength: 1, maxLength: 64, description: 'the check-in\'s id, made where it is decided (idempotent by it)' });

export const HubCheckinBody = Type.Object({
  id: CheckinId,
  code: Type.String({ minLength: 1, maxLength: 600, description: 'as scanned: a signed code or a 20-character code' }),
  occurrenceId: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.maxIdLength })),
  direction: Direction,
  gate: GateName,
}, strict);
export type HubCheckinBody = Static<typeof HubCheckinBody>;

export const WireCheckin = Type.Object({
  id: CheckinId,
  code: Type.String({ minLength: 1, maxLength: 64, description: 'the ticket\'s 20-character code' }),
  occurrenceId: Id,
  direction: Direction,
  gate: GateName,
  at: Timestamp,
  orderId: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'the ticket\'s order as the terminal knows it (used when the hub has no such ticket yet)' })),
}, strict);
export type WireCheckin = Static<typeof WireCheckin>;

export const HubCheckinImportBody = Type.Object({ checkins: Type.Array(WireCheckin, { minItems: 1, maxItems: CHECKIN_IMPORT_LIMIT }) }, strict);
export type HubCheckinImportBody = Static<typeof HubCheckinImportBody>;

export const HubCheckinImportAnswer = Type.Object({
  results: Type.Array(Type.Object({
    id: Type.String(),
    recorded: Type.Boolean({ description: 'false: this hub had the check-in already (a repeat)' }),
    duplicateEntry: Type.Boolean({ description: 'an "in" of a ticket that was inside already: recorded, and a DUPLICATE_ENTRY conflict added' }),
  }), { description: 'one per check-in, in the order sent' }),
});
export type HubCheckinImportAnswer = Static<typeof HubCheckinImportAnswer>;
