import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf } from '../auth';
import type { EngineContext } from '../../shared/context';
import { importOrders } from '../../sync/import-orders';
import { errorBody } from '../error-handler';
import { replies } from '../../contract/common';
import { Capabilities, EXTENSIONS, IMPORT_BATCH_LIMIT, ImportAnswer, ImportBody, ImportResult } from '../../contract/import';
import { mapInSlices } from '../../shared/time-slices';

/** one import result, for the route's serializer (a plain object: Fastify's compile cache is keyed by it) */
const RESULT_SCHEMA: Record<string, unknown> = { ...ImportResult };

/**
 * What makes an engine a hub (contract §10): GET /capabilities, public, so a terminal can tell a hub from a
 * plain v3 service before it sends anything, and POST /orders/import, a terminal's orders in one request.
 */
export const hubRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext; importBatch?: number | undefined; allocations: boolean }> = async (
  app,
  { ctx, importBatch, allocations },
) => {
  const batch = Math.min(IMPORT_BATCH_LIMIT, Math.max(1, importBatch ?? IMPORT_BATCH_LIMIT));
  const extensions = EXTENSIONS.filter((name) => allocations || name !== 'allocations.places');
  app.get(
    '/capabilities',
    { schema: { tags: ['system'], summary: 'The extensions this engine offers beyond v3; needs no key', response: replies(200, Capabilities) } },
    async () => ({ data: { extensions, limits: { importBatch: batch } } }),
  );

  app.post(
    '/orders/import',
    {
      config: { scope: 'orders:import' },
      schema: {
        tags: ['orders'],
        summary: "Import a terminal's orders: up to 100, each created whole or refused whole, with a result per order",
        description:
          'Each order is checked and created exactly as POST /carts, extras, vouchers and POST /orders with `payment: { method: "external", reference }` ' +
          'would, in one transaction per order, with no hold left behind when it is refused. The answer is 200 with one result per order, in the order sent: ' +
          '`status` 201 with the `order`, or the status and `error` (the v3 error object, `param` under `orders[i]`) of the refusal. ' +
          'A repeated `idempotencyKey` with the same `reference` — or the same `reference` again from the same API key — answers the first import\'s order ' +
          'with `replayed: true`, for good (not only 24 hours); the same key with another reference is 409 IDEMPOTENCY_KEY_REUSED; a `reference` ' +
          'another API key imported first is 409 IMPORT_REFERENCE_TAKEN. The order belongs to the importing key: it reads and cancels it, no other terminal.',
        body: ImportBody,
        // the answer goes out as the bytes of JSON serialized in slices (below); the schema documents it
        response: { ...replies(200, ImportAnswer), 200: Type.Unsafe<Readable>(Type.Object({ data: ImportAnswer })) },
      },
    },
    async (request, reply) => {
      const outcomes = await importOrders(ctx, callerOf(request), request.body);
      // The answer carries every order whole: a batch of large orders is megabytes of JSON, seconds of one
      // synchronous serialization. So each result is serialized on its own, with the route's serializer and its
      // schema, and encoded to bytes, in slices that give the event loop a turn (issue #22). The pieces go out
      // as a stream of their own bytes with the whole length declared: joined into one string, measuring and
      // encoding ~20 MB held the loop for some 40 ms more (and its garbage as long again).
      const serialize = reply.compileSerializationSchema(RESULT_SCHEMA);
      const pieces = await mapInSlices(outcomes, (outcome, index) => {
        const named = { reference: outcome.reference, idempotencyKey: outcome.idempotencyKey };
        const json =
          'error' in outcome
            ? serialize({ ...named, status: outcome.error.status, error: errorBody(outcome.error, request).error } satisfies ImportResult)
            : serialize({ ...named, status: 201, ...(outcome.replayed && { replayed: true }), order: outcome.order } satisfies ImportResult);
        return Buffer.from(index === 0 ? json : `,${json}`, 'utf8');
      });
      const body = [Buffer.from('{"data":{"results":['), ...pieces, Buffer.from(']}}')];
      return reply
        .type('application/json; charset=utf-8')
        .header('content-length', body.reduce((length, piece) => length + piece.length, 0))
        .send(Readable.from(body, { objectMode: false }));
    },
  );
};
