import { Type, type Static } from 'typebox';
import { Id, Timestamp } from './common';

/** At a terminal: what it holds from its hub, per inventory item (contract §10; GET /sync/holdings). */

export const Holding = Type.Object({
  occurrenceId: Id,
  inventoryItemId: Id,
  inHand: Type.Integer({ description: 'places granted by the hub and not sold here yet (carts included)' }),
  inCarts: Type.Integer({ description: "what this terminal's live carts hold of them" }),
  sellable: Type.Integer({ description: 'what this terminal can sell without asking the hub: in hand, in no cart, not lapsed' }),
  lapsesAt: Type.Union([Timestamp, Type.Null()], { description: "when the hub may take them back unless this terminal calls it again (this terminal's clock)" }),
  venueAvailable: Type.Union([Type.Integer(), Type.Null()], { description: 'what the venue had left for anyone else when last seen' }),
  venueSeenAt: Type.Union([Timestamp, Type.Null()]),
});
export type Holding = Static<typeof Holding>;

export const Holdings = Type.Object({
  mode: Type.Union([Type.Literal('hub'), Type.Literal('plain'), Type.Literal('unknown'), Type.Literal('standalone')], {
    description: 'hub: sells only what it holds; plain: holds each cart upstream first (offline only with --offline-sales); standalone: no upstream',
  }),
  online: Type.Boolean(),
  holdings: Type.Array(Holding),
});
export type Holdings = Static<typeof Holdings>;

export const GiveBackBody = Type.Object(
  { occurrenceId: Type.Optional(Id) },
  { additionalProperties: false, description: 'without occurrenceId: everything in hand that no cart holds' },
);
export type GiveBackBody = Static<typeof GiveBackBody>;
