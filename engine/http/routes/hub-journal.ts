import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { EngineContext } from '../../shared/context';
import { callerOf } from '../auth';
import { replies } from '../../contract/common';
import { HubJournalAnswer, HubJournalBody, HubJournalPage, HubJournalQuery } from '../../contract/hub-journal';
import { readTerminalJournal } from '../../sync/hub-journal-read';
import { receiveTerminalJournal } from '../../sync/hub-journal';

const tags = ['sync'];

/**
 * A terminal's journal at its hub (contract §14): POST /hub/journal (scope `orders:import`, the terminal's sync key)
 * stores its entries exactly once; GET /hub/journal?terminal= (scope `admin`) reads the hub's copy.
 */
export const hubJournalRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext }> = async (app, { ctx }) => {
  app.post(
    '/hub/journal',
    {
      config: { scope: 'orders:import' },
      // a batch of entries may carry Z reports: more than the default limit of a request
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags,
        summary: "Store a terminal's journal entries at its hub: consecutive, continuing the chain held, exactly once",
        description:
          "The entries of the calling terminal's journal (the terminal is the sync key's owner: `keys replace` keeps it), in seq order. " +
          'Each hash is checked against its content and each entry against the one before it; entries already held are answered as stored ' +
          'when they are the same (a repeat), so a request may be sent again after a lost answer. All or nothing per request. ' +
          '409 JOURNAL_GAP (`details.lastSeq`, `details.expectedSeq`): the first entry is past the one after the last held — send from `expectedSeq`. ' +
          '409 JOURNAL_CHAIN_BROKEN (`details.seq`, `details.reason`: `hash-mismatch` — the hash is not its content\'s, `chain-broken` — ' +
          "prevHash is not the previous entry's hash, `differs` — another entry is held at that seq): refused for good. " +
          'The answer names the last seq held now.',
        body: HubJournalBody,
        response: replies(200, HubJournalAnswer),
      },
    },
    async (request) => ({ data: await receiveTerminalJournal(ctx, callerOf(request), request.body.entries) }),
  );

  app.get(
    '/hub/journal',
    {
      config: { scope: 'admin' },
      schema: {
        tags,
        summary: "Read a terminal's journal as this hub holds it (every hash can be recomputed)",
        querystring: HubJournalQuery,
        response: { 200: HubJournalPage },
      },
    },
    async (request) => readTerminalJournal(ctx, request.query.terminal, Number(request.query.after ?? 0), Number(request.query.limit ?? 100)),
  );
};
