-- Issue #25: a hub keeps every terminal's journal, as its SQLite twin (store/migrations/0024): the terminal's
-- `journal` rows with the terminal (its sync key's owner) in front, the last entry per terminal, and the
-- terminals' shifts derived from their shiftOpened/shiftClosed entries.
CREATE TABLE terminal_journal (
  key_id TEXT COLLATE "C" NOT NULL,
  seq BIGINT NOT NULL,
  at TEXT COLLATE "C" NOT NULL,
  kind TEXT COLLATE "C" NOT NULL,
  ref TEXT COLLATE "C" NOT NULL,
  amount TEXT,
  data TEXT NOT NULL,
  prev_hash TEXT COLLATE "C" NOT NULL,
  hash TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (key_id, seq)
);
CREATE TABLE terminal_journal_heads (
  key_id TEXT COLLATE "C" PRIMARY KEY,
  seq BIGINT NOT NULL,
  hash TEXT COLLATE "C" NOT NULL,
  received_at BIGINT NOT NULL
);
CREATE TABLE terminal_shifts (
  key_id TEXT COLLATE "C" NOT NULL,
  id TEXT COLLATE "C" NOT NULL,
  number BIGINT NOT NULL,
  status TEXT COLLATE "C" NOT NULL CHECK (status IN ('open', 'closed')),
  opened_at TEXT COLLATE "C" NOT NULL,
  opening_float BIGINT NOT NULL,
  currency TEXT COLLATE "C" NOT NULL,
  staff TEXT,
  closed_at TEXT COLLATE "C",
  z_number BIGINT,
  expected BIGINT,
  counted BIGINT,
  difference BIGINT,
  note TEXT,
  report TEXT,
  PRIMARY KEY (key_id, id)
);
CREATE INDEX terminal_shifts_newest ON terminal_shifts(opened_at DESC, key_id, id);
