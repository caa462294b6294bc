import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, replies } from '../../contract/common';
import { TicketKeyView, TicketRevocationsPage, TicketRevocationsQuery } from '../../contract/ticket-keys';
import type { EngineContext } from '../../shared/context';
import { listRevocations, listTicketKeys } from '../../tickets/list';
import { Type } from 'typebox';

const tags = ['check-in'];
/** what reads the catalog (a terminal or a gate pulling with it), and door staff (`checkin`) */
const gateOrCatalog = { scope: ['catalog:read', 'checkin'] } as const;

/** The public ticket keys and the revocation list (issue #26, contract §15): what a gate checks tickets with, offline. */
export const ticketKeyRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext }> = async (app, { ctx }) => {
  app.get(
    '/ticket-keys',
    {
      config: gateOrCatalog,
      schema: {
        tags,
        summary: "The public keys signed codes are checked with: this engine's own (current and earlier) and every key it learned",
        description: 'A signed code `K1.<payload>.<signature>.<keyId>` verifies with the Ed25519 public key of its key id '
          + '(a JWK `{ kty: "OKP", crv: "Ed25519", x: publicKey }`) over the bytes of base64url-decoded `payload`. Never a private key.',
        response: replies(200, Type.Array(TicketKeyView)),
      },
    },
    async () => ({ data: await listTicketKeys(ctx) }),
  );

  app.get(
    '/ticket-revocations',
    {
      config: gateOrCatalog,
      schema: {
        tags,
        summary: 'Revoked tickets (of cancelled orders) in seq order, after a seq',
        querystring: TicketRevocationsQuery,
        response: { 200: TicketRevocationsPage, '4xx': ErrorBody, '5xx': ErrorBody },
      },
    },
    async (request) => listRevocations(ctx, {
      ...(request.query.after !== undefined && { after: Number(request.query.after) }),
      ...(request.query.limit !== undefined && { limit: Number(request.query.limit) }),
    }),
  );
};
