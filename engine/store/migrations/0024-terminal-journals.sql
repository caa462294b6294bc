-- Issue #25: a hub keeps every terminal's journal (contract §14: "the journal and closed shifts reach the upstream
-- with the orders"). `terminal_journal` is the terminal's own `journal` table (store/migrations/0021) row for row,
-- with the terminal it came from in front: `key_id` is the terminal's sync key's owner — the id of its first key,
-- kept by `keys replace` — so a rotated key continues its terminal's chain. Each hash can be recomputed from its
-- row exactly as on the terminal. Entries are only ever inserted (POST /api/v3/hub/journal, sync/hub-journal.ts),
-- in seq order, each continuing the chain of the one before it.
CREATE TABLE terminal_journal (
  key_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  at TEXT NOT NULL,
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  amount TEXT, -- JSON of Money, or NULL
  data TEXT NOT NULL, -- JSON
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (key_id, seq)
) STRICT;
-- The last entry stored per terminal: what the next one must continue (seq + 1, prev_hash = hash), read and
-- updated under the terminal's lock in the transaction that inserts.
CREATE TABLE terminal_journal_heads (
  key_id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  hash TEXT NOT NULL,
  received_at INTEGER NOT NULL
) STRICT;
-- Every terminal's shifts as its journal tells them (a `shiftOpened` entry makes the row, its `shiftClosed` entry
-- closes it with the Z report): derived data, written in the same transaction as the entries. Money in minor
-- units of `currency` (the terminal's base currency).
CREATE TABLE terminal_shifts (
  key_id TEXT NOT NULL,
  id TEXT NOT NULL,
  number INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
  opened_at TEXT NOT NULL,
  opening_float INTEGER NOT NULL,
  currency TEXT NOT NULL,
  staff TEXT,
  closed_at TEXT,
  z_number INTEGER,
  expected INTEGER,
  counted INTEGER,
  difference INTEGER,
  note TEXT,
  report TEXT, -- JSON: the Z report of the shiftClosed entry
  PRIMARY KEY (key_id, id)
) STRICT;
CREATE INDEX terminal_shifts_newest ON terminal_shifts(opened_at DESC, key_id, id);
