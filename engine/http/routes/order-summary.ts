import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replies } from '../../contract/common';
import { OrdersSummary, OrdersSummaryQuery } from '../../contract/order-summary';
import type { EngineContext } from '../../shared/context';
import { listedOwner } from '../../shared/ownership';
import { summarizeOrders } from '../../orders/summarize-orders';
import { callerOf } from '../auth';

/** GET /orders/summary (scope orders:read): the box office's totals of today's sales, per currency. */
export const orderSummaryRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext }> = async (app, { ctx }) => {
  const summaries = ctx.store.repos.orderSummaries;
  app.get(
    '/orders/summary',
    {
      config: { scope: 'orders:read' },
      schema: {
        tags: ['orders'],
        summary: 'What the orders made between two instants add up to, per currency (count, total, cancelled, net)',
        querystring: OrdersSummaryQuery,
        response: replies(200, OrdersSummary),
      },
    },
    // a key without orders:any adds up its own orders only, as GET /orders lists them
    async (request) => ({ data: await summarizeOrders(summaries, request.query, listedOwner(callerOf(request))) }),
  );
};
