import { Type, type Static } from 'typebox';
import { Money } from './common';

/** The journal's wire shapes (contract §14): GET /api/v3/journal and GET /api/v3/journal/verify. */

const Hash = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'lowercase hex SHA-256' });

export const JOURNAL_PAGE_DEFAULT = 100;
export const JOURNAL_PAGE_MAX = 1000;

export const JournalEntry = Type.Object({
  seq: Type.Integer({ minimum: 1, description: '1, 2, 3 … without gaps' }),
  at: Type.String({ description: 'ISO 8601 UTC with milliseconds' }),
  kind: Type.String({ description: 'order, cancellation, payIn, payOut, shiftOpened, shiftClosed' }),
  ref: Type.String({ description: 'what the entry records: an order, a cash movement, a shift' }),
  amount: Type.Optional(Money),
  data: Type.Record(Type.String(), Type.Unknown(), { description: "the entry's data by kind (every kind has shiftId: the shift open when it was written, or null)" }),
  prevHash: Hash,
  hash: Type.String({ description: 'sha256hex(prevHash + canonical JSON of the entry without hash: keys sorted at every depth, no spaces, amount left out when absent)' }),
});
export type JournalEntryBody = Static<typeof JournalEntry>;

export const JournalQuery = Type.Object(
  {
    after: Type.Optional(Type.String({ pattern: '^(?:0|[1-9][0-9]{0,14})$', description: 'the entries after this seq (default 0: from the first)' })),
    limit: Type.Optional(Type.String({ pattern: '^(?:[1-9][0-9]{0,2}|1000)$', description: `1–${JOURNAL_PAGE_MAX}, default ${JOURNAL_PAGE_DEFAULT}` })),
  },
  { additionalProperties: false },
);

export const JournalPage = Type.Object({
  data: Type.Array(JournalEntry),
  nextAfter: Type.Optional(Type.Integer({ description: 'present when more entries follow: the `after` of the next page' })),
});

export const JournalVerdict = Type.Union([
  Type.Object({ ok: Type.Literal(true), entries: Type.Integer({ minimum: 0 }), head: Type.String({ description: "the last entry's hash (64 zeros when empty)" }) }),
  Type.Object({
    ok: Type.Literal(false),
    firstBadSeq: Type.Integer({ minimum: 1, description: 'the first entry found changed, moved or removed (for a removed one: its seq)' }),
    reason: Type.Union([Type.Literal('hash-mismatch'), Type.Literal('chain-broken'), Type.Literal('missing'), Type.Literal('head-mismatch')], {
      description: "hash-mismatch: the row's hash is not the one recomputed from it; chain-broken: its prevHash is not the previous row's hash; "
        + 'missing: a seq is not there (also a removed last entry, found through journal_head); head-mismatch: journal_head does not match the last row',
    }),
  }),
]);
