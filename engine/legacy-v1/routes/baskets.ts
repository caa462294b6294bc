import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { EngineError } from '../../domain/errors';
import { Basket, BasketParams, PromotionBody, ReservationParams, UpsertBasketBody, V1ErrorBody } from '../contract';
import type { Repos } from '../../store/port';
import { basketOf } from '../answer-to-v1';
import { applyPromotion, clearBasket, readBasket, removeReservation, upsertBasket, type LegacyContext } from '../request-to-v3';
import { installChannelAuth } from '../http/channel-auth';

/**
 * /api/v1/baskets (contract §11): plumbing only. Each handler hands the v1 request to request-to-v3 and
 * the v3 cart it gets back to answer-to-v1. Every route is deprecated (see v1/deprecation.ts).
 */

export interface BasketRoutesOptions {
  readonly legacy: LegacyContext;
  readonly channels: Repos['channels'];
  /** requests per second per channel (burst the same); 0 turns limiting off */
  readonly rateLimit: number;
}

// The API-key limiter of app.ts does not apply: v1 is limited per channel, once the channel is proven.
const config = { channelScope: 'carts:write', rateLimit: false } as const;
const tags = ['legacy v1'];
const v1Replies = <T extends TSchema>(schema: T) => ({ 200: Type.Object({ data: schema }), '4xx': V1ErrorBody, '5xx': V1ErrorBody }) as const;

export const basketRoutes: FastifyPluginAsyncTypebox<BasketRoutesOptions> = async (app, { legacy, channels, rateLimit }) => {
  installChannelAuth(app, channels);
  if (rateLimit > 0) {
    const limit = app.createRateLimit({ max: rateLimit, timeWindow: 1000, keyGenerator: (request) => `channel:${request.channelId ?? ''}` });
    app.addHook('preHandler', async (request) => {
      const verdict = await limit(request);
      if (!verdict.isAllowed && verdict.isExceeded) {
        throw new EngineError('RATE_LIMIT_EXCEEDED', { details: { retryAfter: Math.max(1, Math.ceil(verdict.ttl / 1000)) } });
      }
    });
  }
  const channelOf = (request: { channelId?: string }): string => {
    if (request.channelId === undefined) throw new EngineError('INVALID_API_KEY');
    return request.channelId;
  };

  app.patch(
    '/baskets',
    { config, schema: { tags, deprecated: true, summary: 'Create or replace a basket (upsert)', body: UpsertBasketBody, response: v1Replies(Basket) } },
    async (request) => ({ data: basketOf(request.body.reference, await upsertBasket(legacy, channelOf(request), request.body)) }),
  );

  app.get(
    '/baskets/:reference',
    { config, schema: { tags, deprecated: true, summary: 'Read a basket', params: BasketParams, response: v1Replies(Basket) } },
    async (request) => ({ data: basketOf(request.params.reference, await readBasket(legacy, channelOf(request), request.params.reference)) }),
  );

  app.patch(
    '/baskets/:reference/applyPromotion',
    { config, schema: { tags, deprecated: true, summary: 'Apply a promotion code', params: BasketParams, body: PromotionBody, response: v1Replies(Basket) } },
    async (request) => ({
      data: basketOf(request.params.reference, await applyPromotion(legacy, channelOf(request), request.params.reference, request.body.code)),
    }),
  );

  app.delete(
    '/baskets/:reference/reservations/:reservationId',
    { config, schema: { tags, deprecated: true, summary: 'Remove an extra (a ticket line answers 400)', params: ReservationParams, response: v1Replies(Basket) } },
    async (request) => {
      const { reference, reservationId } = request.params;
      return { data: basketOf(reference, await removeReservation(legacy, channelOf(request), reference, reservationId)) };
    },
  );

  app.patch(
    '/baskets/:reference/clear',
    {
      config,
      schema: {
        tags,
        deprecated: true,
        summary: 'Release the hold (204)',
        params: BasketParams,
        response: { 204: { type: 'null', description: 'Cleared' }, '4xx': V1ErrorBody, '5xx': V1ErrorBody },
      },
    },
    async (request, reply) => {
      await clearBasket(legacy, channelOf(request), request.params.reference);
      return reply.code(204).send(null);
    },
  );
};
