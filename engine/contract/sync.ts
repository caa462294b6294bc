import { Type, type Static } from 'typebox';
import { Holding } from './holdings';

/** GET /sync/status and the conflict inbox (issue: offline-first sync). */

export const SyncConflict = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.Literal('order'), Type.Literal('cancel'), Type.Literal('gift-card-release'), Type.Literal('checkin')], {
    description: 'checkin: at a hub, a ticket a terminal admitted offline while it was inside already (code DUPLICATE_ENTRY, issue #26): ' +
      'resolved with POST /sync/checkin-conflicts/{id}/resolve, never retried; the others are the outbox\'s',
  }),
  orderId: Type.String(),
  code: Type.String({ description: "the upstream's error code; DUPLICATE_ENTRY for kind checkin" }),
  message: Type.String(),
  at: Type.Union([Type.String(), Type.Null()]),
  attempts: Type.Integer(),
});
export type SyncConflict = Static<typeof SyncConflict>;

export const SyncStatus = Type.Object({
  upstream: Type.Union([Type.String(), Type.Null()], { description: 'null: standalone' }),
  upstreamKind: Type.Union([Type.Literal('hub'), Type.Literal('v3'), Type.Null()], {
    description: 'hub: a Kassa engine that takes whole orders in one request (GET /capabilities); v3: any other v3 service (the cart flow); null: not known yet',
  }),
  online: Type.Union([Type.Boolean(), Type.Null()], { description: 'false: the upstream has answered nothing for a while (5xx or silence), or it refuses the sync key (keyRejected)' }),
  lastSuccessAt: Type.Union([Type.String(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  keyRejected: Type.Boolean({ description: 'the upstream refuses the sync key (401) or its scope (403): nothing goes until an admin fixes the key' }),
  waiting: Type.Integer({ description: 'outbox entries not yet delivered' }),
  oldestWaitingSeconds: Type.Union([Type.Integer(), Type.Null()], { description: 'age of the oldest entry waiting; null when none waits' }),
  deliveryRate: Type.Number({ description: 'entries delivered per second over the last minute (one decimal)' }),
  estimatedSecondsLeft: Type.Union([Type.Integer(), Type.Null()], { description: 'waiting ÷ deliveryRate; 0 when none waits, null when nothing is moving' }),
  conflicts: Type.Array(SyncConflict),
  journal: Type.Object({
    waiting: Type.Integer({ description: 'journal entries the upstream has not confirmed yet (an entry goes once its order is delivered); 0 without an upstream' }),
    confirmedSeq: Type.Integer({ description: 'the last journal seq the hub confirmed holding (0: none)' }),
    accepted: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'the upstream takes journals (a Kassa hub offering `journal.import`); false: a plain v3 upstream, to which nothing is sent; null: not known yet',
    }),
    refused: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()], {
      description: 'the hub refused the journal for good (JOURNAL_CHAIN_BROKEN: an entry changed, or another journal under this key): offered again every minute',
    }),
  }, { description: 'the journal on its way to the hub (contract §14)' }),
  holdings: Type.Array(Holding, { description: 'what this terminal holds from its hub, per inventory item (contract §10)' }),
  checkins: Type.Object({
    waiting: Type.Integer({ description: 'check-ins this gate decided alone (its hub offline) that the hub does not have yet; 0 without an upstream' }),
  }, { description: 'offline check-ins on their way to the hub (issue #26)' }),
});
export type SyncStatus = Static<typeof SyncStatus>;

export const SyncEntry = Type.Intersect([SyncConflict, Type.Object({ state: Type.String(), resolvedNote: Type.Union([Type.String(), Type.Null()]) })]);
export const SyncEntryParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) });
export const ResolveBody = Type.Object({ note: Type.String({ minLength: 1, maxLength: 1000 }) }, { additionalProperties: false });
