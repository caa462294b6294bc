import { Type, type Static } from 'typebox';
import { LIMITS } from '../domain/limits';
import { Id, Timestamp } from './common';

/** The allocation resource of a hub (contract §10): places of an inventory item granted to a terminal. */

const strict = { additionalProperties: false } as const;

export const AllocationChange = Type.Object(
  {
    occurrenceId: Id,
    inventoryItemId: Id,
    change: Type.Integer({
      minimum: -100_000,
      maximum: 100_000,
      description: 'places to add (grant, top up) or, negative, to give back; a give-back returns at most what is allocated',
    }),
    minimum: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 100_000, description: 'a grant of fewer places than this grants none: 409 INVENTORY_EXHAUSTED' }),
    ),
    forSale: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: LIMITS.maxTicketsPerOrder,
        description:
          "the part of `change` a sale in progress at the terminal needs (its cart's shortfall): granted beyond the hub's cap per terminal, " +
          'up to what the venue has left; the rest of `change` is what the terminal keeps in hand and stays within the cap. At most `change`',
      }),
    ),
  },
  strict,
);
export type AllocationChange = Static<typeof AllocationChange>;

export const ChangeAllocationsBody = Type.Object({ changes: Type.Array(AllocationChange, { minItems: 1, maxItems: 200 }) }, strict);
export type ChangeAllocationsBody = Static<typeof ChangeAllocationsBody>;

export const AllocationView = Type.Object({
  occurrenceId: Id,
  inventoryItemId: Id,
  quantity: Type.Integer({ description: "places the terminal holds now (the hub's count: sold-but-not-yet-arrived orders included)" }),
  available: Type.Integer({ description: 'places the venue has left for anyone else' }),
  change: Type.Optional(Type.Integer({ description: 'what this request actually added (negative: gave back)' })),
});
export type AllocationView = Static<typeof AllocationView>;

export const Allocations = Type.Object({
  terminalId: Type.String({ description: "the terminal the allocations belong to: its sync key's owner (the first key's id after npm run keys -- replace, or the key's --owner name)" }),
  lapseSeconds: Type.Integer({ description: 'allocations lapse this long after the terminal last called the allocation resource' }),
  expiresAt: Timestamp,
  allocations: Type.Array(AllocationView),
});
export type Allocations = Static<typeof Allocations>;

export const AllocationHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'required: a UUID v4; the same key answers the first answer again' })),
});
