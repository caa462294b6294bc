import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { EngineContext } from '../../use-cases/context';
import { resolveConflict, retryConflict, syncStatus, type SyncSource } from '../../use-cases/sync-status';
import { replies } from '../schemas/common';

const Conflict = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.Literal('order'), Type.Literal('cancel')]),
  orderId: Type.String(),
  code: Type.String({ description: "the upstream's error code" }),
  message: Type.String(),
  at: Type.Union([Type.String(), Type.Null()]),
  attempts: Type.Integer(),
});
const SyncStatusView = Type.Object({
  upstream: Type.Union([Type.String(), Type.Null()], { description: 'null: standalone' }),
  online: Type.Union([Type.Boolean(), Type.Null()]),
  lastSuccessAt: Type.Union([Type.String(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  waiting: Type.Integer({ description: 'outbox entries not yet delivered' }),
  conflicts: Type.Array(Conflict),
});
const EntryView = Type.Intersect([Conflict, Type.Object({ state: Type.String(), resolvedNote: Type.Union([Type.String(), Type.Null()]) })]);
const Params = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) });

const config = { scope: 'admin' } as const;
const tags = ['sync'];

export const syncRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext; worker: () => SyncSource | undefined }> = async (app, { ctx, worker }) => {
  app.get('/sync/status', { config, schema: { tags, summary: 'Online or offline, last sync, entries waiting, the conflict inbox', response: replies(200, SyncStatusView) } }, async () => ({
    data: syncStatus(ctx, worker()),
  }));
  app.post(
    '/sync/conflicts/:id/retry',
    { config, schema: { tags, summary: 'Send a conflicting entry again', params: Params, response: replies(200, EntryView) } },
    async (request) => ({ data: retryConflict(ctx, Number(request.params.id)) }),
  );
  app.post(
    '/sync/conflicts/:id/resolve',
    {
      config,
      schema: { tags, summary: 'Mark a conflict resolved, with a note', params: Params, body: Type.Object({ note: Type.String({ minLength: 1, maxLength: 1000 }) }, { additionalProperties: false }), response: replies(200, EntryView) },
    },
    async (request) => ({ data: resolveConflict(ctx, Number(request.params.id), request.body.note) }),
  );
};
