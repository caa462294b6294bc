import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EngineError } from '../../domain/errors';
import { replies } from '../../contract/common';
import { GiveBackBody, Holdings } from '../../contract/holdings';
import type { Allocator } from '../../sync/allocator';
import type { EngineContext } from '../../shared/context';
import { holdingsView } from '../../allocations/holdings-view';

/** At a terminal: what it holds from its hub, and staff giving places back (contract §10). Scope `sync`, like the sync status. */
const config = { scope: 'sync' } as const;
const tags = ['sync'];

export const holdingRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext; allocator: () => Allocator | undefined }> = async (app, { ctx, allocator }) => {
  const view = () => {
    const running = allocator();
    return holdingsView(ctx, running ? { mode: running.mode(), online: running.online() } : { mode: 'standalone', online: false });
  };
  app.get('/sync/holdings', { config, schema: { tags, summary: 'What this terminal holds from its hub, per inventory item', response: replies(200, Holdings) } }, async () => ({
    data: await view(),
  }));
  app.post(
    '/sync/holdings/give-back',
    {
      config,
      schema: {
        tags,
        summary: 'Give places in hand back to the hub (those no cart holds), of one occurrence or all',
        description: 'Answers 503 UPSTREAM_UNAVAILABLE when the hub cannot be reached; nothing is lost, the places stay in hand.',
        body: GiveBackBody,
        response: replies(200, Holdings),
      },
    },
    async (request) => {
      const running = allocator();
      if (!running || running.mode() !== 'hub') throw new EngineError('INVALID_FIELD_VALUE', { details: { reason: 'not_a_terminal_of_a_hub' } });
      const outcome = await running.giveBack(request.body.occurrenceId);
      if (outcome === 'unanswered') throw new EngineError('UPSTREAM_UNAVAILABLE');
      return { data: await view() };
    },
  );
};
