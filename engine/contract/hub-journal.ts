import { Type, type Static } from 'typebox';
import { Money } from './common';
import { Shift, ShiftsQuery } from './shift';

/**
 * POST /hub/journal and GET /hub/journal (contract §14, hub only): a terminal's journal entries reach its hub, each
 * exactly once, in seq order, each continuing the chain the hub already holds for that terminal.
 */

/** most entries per POST /hub/journal */
export const JOURNAL_BATCH_LIMIT = 200;

const HEX64 = '^[0-9a-f]{64}$';

/** One journal entry as a terminal's GET /journal answers it (contract §14). */
export const WireJournalEntry = Type.Object(
  {
    seq: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    at: Type.String({ minLength: 1, maxLength: 64, description: 'ISO 8601 UTC with milliseconds' }),
    kind: Type.String({ minLength: 1, maxLength: 64 }),
    ref: Type.String({ maxLength: 256 }),
    amount: Type.Optional(Money),
    data: Type.Record(Type.String(), Type.Unknown()),
    prevHash: Type.String({ pattern: HEX64 }),
    hash: Type.String({ pattern: HEX64 }),
  },
  { additionalProperties: false },
);
export type WireJournalEntry = Static<typeof WireJournalEntry>;

export const HubJournalBody = Type.Object(
  {
    entries: Type.Array(WireJournalEntry, {
      minItems: 1,
      maxItems: JOURNAL_BATCH_LIMIT,
      description: 'consecutive entries in seq order; the first continues what the hub holds (or repeats some of it)',
    }),
  },
  { additionalProperties: false },
);
export type HubJournalBody = Static<typeof HubJournalBody>;

export const HubJournalAnswer = Type.Object({
  lastSeq: Type.Integer({ description: "the last seq the hub now holds of this terminal's journal (0: none)" }),
  head: Type.String({ description: 'the hash of that entry (64 zeros: none)' }),
  stored: Type.Integer({ description: 'entries of this request stored now (the others were held already)' }),
});
export type HubJournalAnswer = Static<typeof HubJournalAnswer>;

export const HubJournalQuery = Type.Object(
  {
    terminal: Type.String({ minLength: 1, maxLength: 128, description: "the terminal: its sync key's owner (the id of its first key)" }),
    after: Type.Optional(Type.String({ pattern: '^(0|[1-9][0-9]{0,15})$', description: 'entries after this seq (default 0)' })),
    limit: Type.Optional(Type.String({ pattern: '^(?:[1-9][0-9]{0,2}|1000)$', description: '1–1000, default 100' })),
  },
  { additionalProperties: false },
);

export const HubJournalPage = Type.Object({
  data: Type.Array(WireJournalEntry),
  nextAfter: Type.Optional(Type.Integer()),
});

/** GET /shifts: this engine's shifts, or at a hub (`terminal`) its terminals' shifts (contract §14). */
export const ShiftsListQuery = Type.Object(
  {
    ...ShiftsQuery.properties,
    terminal: Type.Optional(Type.String({
      minLength: 1,
      maxLength: 128,
      description: "at a hub: a terminal's shifts (its sync key's owner, the id of its first key) as its journal told them, or `all` for every terminal's; left out: this engine's own",
    })),
  },
  { additionalProperties: false },
);

/** A shift in a list: with `terminal` and a closed one's `report` (its Z report) when it is a terminal's. */
export const ListedShift = Type.Object({
  ...Shift.properties,
  terminal: Type.Optional(Type.String({ description: "the terminal whose shift it is (?terminal= only): its sync key's owner" })),
  report: Type.Optional(Type.Unknown({ description: "a terminal's closed shift: its Z report (the shape of GET /shifts/{id}/report) as the terminal froze it" })),
});

export const ListedShiftsPage = Type.Object({ data: Type.Array(ListedShift), nextCursor: Type.Optional(Type.String()) });
