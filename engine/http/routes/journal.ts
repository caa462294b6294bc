import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, replies } from '../../contract/common';
import { JournalPage, JournalQuery, JournalVerdict } from '../../contract/journal';
import { listJournal, verifyJournal } from '../../journal/read-journal';
import type { EngineContext } from '../../shared/context';

const tags = ['journal'];
const admin = { scope: 'admin' } as const;

/** GET /journal and GET /journal/verify (scope admin; contract §14): the hash-chained journal, read and checked. */
export const journalRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext }> = async (app, { ctx }) => {
  app.get(
    '/journal',
    {
      config: admin,
      schema: {
        tags,
        summary: 'List journal entries in seq order, after a seq',
        querystring: JournalQuery,
        response: { 200: JournalPage, '4xx': ErrorBody, '5xx': ErrorBody },
      },
    },
    async (request) => listJournal(ctx, {
      ...(request.query.after !== undefined && { after: Number(request.query.after) }),
      ...(request.query.limit !== undefined && { limit: Number(request.query.limit) }),
    }),
  );

  app.get(
    '/journal/verify',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Verify the journal: every hash recomputed, the chain and its head; names the first entry changed or removed (200 either way)',
        response: replies(200, JournalVerdict),
      },
    },
    async () => ({ data: await verifyJournal(ctx) }),
  );
};
