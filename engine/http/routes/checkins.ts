import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replies } from '../../contract/common';
import { CheckinBody, CheckinCounts, CheckinResult, OccurrenceCheckinParams } from '../../contract/checkin';
import { checkIn } from '../../checkins/check-in';
import { checkinCounts } from '../../checkins/counts';
import type { CheckinHub } from '../../checkins/hub-port';
import type { EngineContext } from '../../shared/context';

const tags = ['check-in'];
const checkin = { scope: 'checkin' } as const;

/** Checking tickets at the door (issue #26, contract §15): plumbing only, the rules are in engine/checkins. */
export const checkinRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext; checkinHub?: CheckinHub | undefined }> = async (app, { ctx, checkinHub }) => {
  app.post(
    '/checkins',
    {
      config: checkin,
      schema: {
        tags,
        summary: 'Check a ticket in (or out) at a gate',
        description: 'A signed code is accepted by its signature alone; a 20-character code must be one this engine sold. '
          + '201 `admitted` for an "in", `left` for an "out". Refusals: 400 TICKET_INVALID, 404 TICKET_NOT_FOUND, 410 TICKET_CANCELLED, '
          + '409 TICKET_WRONG_OCCURRENCE (details.occurrenceId, details.startsAt), 409 ALREADY_CHECKED_IN (details.at, details.gate), '
          + '409 NOT_CHECKED_IN (an "out" of a ticket not inside), 404 RESOURCE_NOT_FOUND (an unknown occurrenceId). '
          + 'At a terminal with a hub the hub decides while it answers; offline this engine decides alone.',
        body: CheckinBody,
        response: replies(201, CheckinResult),
      },
    },
    async (request, reply) => reply.code(201).send({ data: await checkIn(ctx, checkinHub, request.body, request.language) }),
  );

  app.get(
    '/occurrences/:id/checkins',
    {
      config: checkin,
      schema: {
        tags,
        summary: "A show's check-in counts: admitted, inside, capacity, sold",
        description: '`admitted`: tickets in at least once; `inside`: inside now; `capacity`: the places of the show\'s inventory; '
          + '`sold`: its tickets in orders not cancelled. At a terminal with a hub: the hub\'s counts while it answers.',
        params: OccurrenceCheckinParams,
        response: replies(200, CheckinCounts),
      },
    },
    async (request) => ({ data: await checkinCounts(ctx, request.params.id, checkinHub) }),
  );
};
