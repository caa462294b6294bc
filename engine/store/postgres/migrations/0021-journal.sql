-- Issue #25 (contract §14): the journal, as its SQLite twin (store/migrations/0021): exactly the contract's columns,
-- `seq` bigint, text elsewhere (`amount` and `data` are JSON text, hashed as stored: engine/domain/journal.ts).
-- Every engine process sharing the database appends to this one journal: an appender holds journal_head's row
-- (SELECT … FOR UPDATE, the last lock of its transaction) from reading the head to its commit, so seq has no gap.
CREATE TABLE journal (
  seq bigint PRIMARY KEY,
  at text NOT NULL,
  kind text NOT NULL,
  ref text NOT NULL,
  amount text,
  data text NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL
);
CREATE INDEX journal_by_shift ON journal (((data::jsonb) ->> 'shiftId'), seq);
CREATE TABLE journal_head (
  id integer PRIMARY KEY CHECK (id = 1),
  seq bigint NOT NULL,
  hash text NOT NULL
);
INSERT INTO journal_head (id, seq, hash) VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');
