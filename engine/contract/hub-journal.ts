import { Type, type Static } from 'typebox';
import { Money } from './common';

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
