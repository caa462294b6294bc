import { Type, type Static } from 'typebox';

/** GET /sync/status and the conflict inbox (issue: offline-first sync). */

export const SyncConflict = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.Literal('order'), Type.Literal('cancel')]),
  orderId: Type.String(),
  code: Type.String({ description: "the upstream's error code" }),
  message: Type.String(),
  at: Type.Union([Type.String(), Type.Null()]),
  attempts: Type.Integer(),
});
export type SyncConflict = Static<typeof SyncConflict>;

export const SyncStatus = Type.Object({
  upstream: Type.Union([Type.String(), Type.Null()], { description: 'null: standalone' }),
  online: Type.Union([Type.Boolean(), Type.Null()]),
  lastSuccessAt: Type.Union([Type.String(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  waiting: Type.Integer({ description: 'outbox entries not yet delivered' }),
  conflicts: Type.Array(SyncConflict),
});
export type SyncStatus = Static<typeof SyncStatus>;

export const SyncEntry = Type.Intersect([SyncConflict, Type.Object({ state: Type.String(), resolvedNote: Type.Union([Type.String(), Type.Null()]) })]);
export const SyncEntryParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) });
export const ResolveBody = Type.Object({ note: Type.String({ minLength: 1, maxLength: 1000 }) }, { additionalProperties: false });
