import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { EngineContext } from '../../shared/context';
import { resolveConflict, retryConflict, syncStatus, type SyncSource } from '../../sync/sync-status';
import { resolveCheckinConflict } from '../../sync/checkin-conflicts';
import { replies } from '../../contract/common';
import { grants } from '../../domain/scopes';
import { callerOf } from '../auth';
import { ResolveBody, SyncEntry, SyncEntryParams, SyncStatus } from '../../contract/sync';

const config = { scope: 'sync' } as const;
// the kiosk's header reads the status alone (sync:status); the conflict inbox stays staff's (sync)
const status = { scope: ['sync', 'sync:status'] } as const;
const tags = ['sync'];

export const syncRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext; worker: () => SyncSource | undefined }> = async (app, { ctx, worker }) => {
  app.get(
    '/sync/status',
    {
      config: status,
      schema: {
        tags,
        summary: 'Online or offline, last sync, the backlog (waiting, oldest, rate, time left), the conflict inbox',
        description: 'With `sync:status` alone (the kiosk) `conflicts` and `holdings` are empty: the inbox and the holdings need `sync`.',
        response: replies(200, SyncStatus),
      },
    },
    async (request) => ({ data: await syncStatus(ctx, worker(), grants(callerOf(request).scopes, 'sync')) }),
  );
  app.post(
    '/sync/conflicts/:id/retry',
    { config, schema: { tags, summary: 'Send a conflicting entry again', params: SyncEntryParams, response: replies(200, SyncEntry) } },
    async (request) => ({ data: await retryConflict(ctx, Number(request.params.id)) }),
  );
  app.post(
    '/sync/conflicts/:id/resolve',
    { config, schema: { tags, summary: 'Mark a conflict resolved, with a note', params: SyncEntryParams, body: ResolveBody, response: replies(200, SyncEntry) } },
    async (request) => ({ data: await resolveConflict(ctx, Number(request.params.id), request.body.note) }),
  );
  app.post(
    '/sync/checkin-conflicts/:id/resolve',
    {
      config,
      schema: {
        tags,
        summary: 'Mark a DUPLICATE_ENTRY conflict (kind checkin) resolved, with a note',
        description: 'At a hub: a ticket two gates admitted while offline (issue #26). Both check-ins stay recorded; the note says what staff did.',
        params: SyncEntryParams,
        body: ResolveBody,
        response: replies(200, SyncEntry),
      },
    },
    async (request) => ({ data: await resolveCheckinConflict(ctx, Number(request.params.id), request.body.note) }),
  );
};
