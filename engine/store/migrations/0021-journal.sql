-- Issue #25 (contract §14): the journal, append-only and hash-chained. Every order, cancellation, drawer movement,
-- shift opening and closing made on this engine is one row, written in the transaction of what it records
-- (engine/journal/append.ts). Exactly the contract's columns, so that an auditor recomputes each hash from its row:
-- hash = sha256hex(prev_hash + canonical JSON of {seq, at, kind, ref, amount?, data, prevHash}) (engine/domain/journal.ts).
-- `amount` is the JSON of a Money ({"amount":n,"currency":"EUR"}) or NULL, `data` a JSON object.
CREATE TABLE journal (
  seq INTEGER PRIMARY KEY, -- 1, 2, 3 … without gaps (not AUTOINCREMENT: the appender numbers from journal_head)
  at TEXT NOT NULL,        -- ISO 8601 UTC with milliseconds
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  amount TEXT,
  data TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
) STRICT;
-- the entries of one shift (its report, its export): by data.shiftId, no column of its own outside the hash
CREATE INDEX journal_by_shift ON journal (json_extract(data, '$.shiftId'), seq);
-- The chain's head: the last entry's seq and hash, updated with every append. It anchors the tail (a deleted last
-- entry is found: verify compares the last row with it) and is the row an appender locks (PostgreSQL).
CREATE TABLE journal_head (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seq INTEGER NOT NULL,
  hash TEXT NOT NULL
) STRICT;
INSERT INTO journal_head (id, seq, hash) VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');
