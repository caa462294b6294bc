import { Type } from 'typebox';

/** GET /ticket-keys and GET /ticket-revocations (issue #26, contract §15): what a gate checks tickets with. */

/** revocations per page: the default and the most */
export const REVOCATION_PAGE_DEFAULT = 1000;
export const REVOCATION_PAGE_MAX = 5000;

export const TicketKeyView = Type.Object({
  keyId: Type.String({ description: 'the first 12 characters of base64url(SHA-256(raw public key)); the last part of a signed code' }),
  publicKey: Type.String({ description: 'base64url (no padding) of the raw 32-byte Ed25519 public key' }),
  engine: Type.String({ description: "the id of the engine whose key it is (`eng_…`): this engine's own keys and those it learned" }),
});

export const TicketRevocationsQuery = Type.Object(
  {
    after: Type.Optional(Type.String({ pattern: '^(?:0|[1-9][0-9]{0,14})$', description: 'the revocations after this seq (default 0: from the first)' })),
    limit: Type.Optional(Type.String({ pattern: '^(?:[1-9][0-9]{0,2}|[1-4][0-9]{3}|5000)$', description: `1–${REVOCATION_PAGE_MAX}, default ${REVOCATION_PAGE_DEFAULT}` })),
  },
  { additionalProperties: false },
);

export const TicketRevocation = Type.Object({
  seq: Type.Integer({ minimum: 1, description: "this engine's sequence number of the revocation (a gate's own, for what it pulled)" }),
  code: Type.String({ description: 'the 20-character ticket code' }),
  occurrenceId: Type.String(),
  at: Type.String({ description: 'when the ticket was revoked (ISO 8601)' }),
});

export const TicketRevocationsPage = Type.Object({
  data: Type.Array(TicketRevocation),
  nextAfter: Type.Optional(Type.Integer({ description: 'present when more revocations follow: the `after` of the next page' })),
});
