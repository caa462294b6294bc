import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { cancelOrder } from '../../checkout/cancel-order';
import { readOrder } from '../../orders/read-order';
import type { EngineContext } from '../../shared/context';
import { listOrders } from '../../orders/list-orders';
import { placeOrder } from '../../checkout/place-order';
import type { GiftCardHub } from '../../checkout/hub-hold';
import { sendError } from '../error-handler';
import { ErrorBody, replies } from '../../contract/common';
import { Order, OrderParams, OrdersPage, OrdersQuery, PlaceOrderBody } from '../../contract/order';
import { localizeOrder, localizeOrders } from '../../shared/localize';
import { listedOwner } from '../../shared/ownership';
import { callerOf } from '../auth';

const tags = ['orders'];
const write = { scope: 'orders:write' } as const;
const read = { scope: 'orders:read' } as const;
// the kiosk's orders:checkout: check out its own carts by card, read its own orders (never list or cancel)
const checkout = { scope: ['orders:write', 'orders:checkout'] } as const;
const readOwn = { scope: ['orders:read', 'orders:checkout'] } as const;

const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'required: a UUID v4, scoped to the API key, kept 24 hours' })),
});

export const orderRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext; giftCardHub?: GiftCardHub | undefined }> = async (app, { ctx, giftCardHub }) => {
  app.post(
    '/orders',
    { config: checkout, schema: { tags, summary: 'Check out a cart', headers: IdempotencyHeaders, body: PlaceOrderBody, response: replies(201, Order) } },
    async (request, reply) => {
      const caller = callerOf(request);
      const apiKey = { id: caller.keyId, owner: caller.owner, scopes: caller.scopes };
      const language = request.language;
      const result = await placeOrder(ctx, apiKey, request.headers['idempotency-key'], request.body, language, giftCardHub);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      if ('error' in result) return sendError(reply, result.error);
      // A replay answers the original body: in the language of the checkout that made the order, not the replay's.
      const answer = (result.replayed ? await ctx.store.repos.orderLanguages.language(result.order.id) : undefined) ?? language;
      return reply.code(201).send({ data: await localizeOrder(ctx, result.order, answer) });
    },
  );

  app.get(
    '/orders',
    { config: read, schema: { tags, summary: 'List orders, newest first, or find the order of a ticket', querystring: OrdersQuery, response: { 200: OrdersPage, '4xx': ErrorBody } } },
    async (request) => {
      // a key without orders:any lists (and finds by ticket code) its own orders only
      const page = await listOrders(ctx, request.query, listedOwner(callerOf(request)));
      const language = request.language;
      return { ...page, data: await localizeOrders(ctx, page.data, language) };
    },
  );

  // another key's order is not found (http/ownership.ts checks every route with an orderId)
  app.get('/orders/:orderId', { config: readOwn, schema: { tags, summary: 'Read an order', params: OrderParams, response: replies(200, Order) } }, async (request) => ({
    data: await localizeOrder(ctx, await readOrder(ctx, request.params.orderId), request.language),
  }));

  app.post(
    '/orders/:orderId/cancel',
    { config: write, schema: { tags, summary: 'Cancel an order: seats back on sale, payment refunded', params: OrderParams, response: replies(200, Order) } },
    async (request) => ({ data: await localizeOrder(ctx, await cancelOrder(ctx, request.params.orderId, callerOf(request).owner), request.language) }),
  );
};
