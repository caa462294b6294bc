import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replies } from '../../contract/common';
import { CheckinCounts, CheckinResult, OccurrenceCheckinParams } from '../../contract/checkin';
import { HubCheckinBody, HubCheckinImportAnswer, HubCheckinImportBody, HubTicketKeysAnswer, HubTicketKeysBody } from '../../contract/hub-checkins';
import { checkIn } from '../../checkins/check-in';
import { checkinCounts } from '../../checkins/counts';
import { importCheckins } from '../../sync/import-checkins';
import { learnTerminalKeys } from '../../sync/learn-terminal-keys';
import type { EngineContext } from '../../shared/context';
import { callerOf } from '../auth';

const tags = ['sync'];
const config = { scope: 'orders:import' } as const;

/**
 * A hub's check-in endpoints for its terminals (issue #26, contract §15 and §10), all with the sync key's scope
 * `orders:import`: the terminal's public keys at first contact, a gate's check-in decided here within its request,
 * a gate's offline check-ins afterwards, and a show's counts. Plumbing only: the rules are in engine/checkins and
 * engine/sync.
 */
export const hubCheckinRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext }> = async (app, { ctx }) => {
  app.post(
    '/hub/ticket-keys',
    {
      config,
      schema: {
        tags,
        summary: "Learn a terminal's public ticket keys (at first contact, before it sells)",
        description: 'Each key id must be derived from its key (the first 12 characters of base64url(SHA-256(raw key)): 400 INVALID_FIELD_VALUE otherwise); ' +
          'a key id known here with another key is 409 TICKET_KEY_CONFLICT. Idempotent: a terminal sends its keys at every pull until they are taken.',
        body: HubTicketKeysBody,
        response: replies(200, HubTicketKeysAnswer),
      },
    },
    async (request) => ({ data: await learnTerminalKeys(ctx, request.body.keys) }),
  );

  app.post(
    '/hub/checkins',
    {
      // not under the per-key rate limit: a terminal's sync key carries all its gates' check-ins, and a 429 would make
      // a gate decide alone while the hub is up (a second entry elsewhere); each request is a person at a door
      config: { ...config, rateLimit: false },
      schema: {
        tags,
        summary: "Decide a terminal gate's check-in here, within the gate's request",
        description: 'Decided as POST /checkins would, with the check-in id the terminal made and the terminal as its source; the same answers and refusals. ' +
          'Not under the per-key rate limit (`--rate-limit`): a refused relay would make the gate decide alone while this hub is up.',
        body: HubCheckinBody,
        response: replies(201, CheckinResult),
      },
    },
    async (request, reply) => {
      const { owner } = callerOf(request);
      return reply.code(201).send({ data: await checkIn(ctx, undefined, { ...request.body, source: owner }, request.language) });
    },
  );

  app.post(
    '/hub/checkins/import',
    {
      config,
      schema: {
        tags,
        summary: "A terminal's offline check-ins: every one recorded, a second entry flagged DUPLICATE_ENTRY",
        description: 'Up to 500 check-ins in the order they were made, idempotent by id. Nothing is refused after the fact: an "in" of a ticket inside already ' +
          'is recorded and listed in GET /sync/status `conflicts` (kind `checkin`, code DUPLICATE_ENTRY) until resolved.',
        body: HubCheckinImportBody,
        response: replies(200, HubCheckinImportAnswer),
      },
    },
    async (request) => ({ data: await importCheckins(ctx, callerOf(request).owner, request.body) }),
  );

  app.get(
    '/hub/occurrences/:id/checkins',
    {
      config,
      schema: { tags, summary: "A show's check-in counts, for a terminal's gate", params: OccurrenceCheckinParams, response: replies(200, CheckinCounts) },
    },
    async (request) => ({ data: await checkinCounts(ctx, request.params.id) }),
  );
};
