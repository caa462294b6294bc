-- Issue #25: a print job can be a shift's X or Z report (POST /shifts/{id}/print, contract §14 and §12) instead of
-- an order's tickets or receipt. Such a job names the shift (`shift_id`, no `order_id`), `what` says `xReport` or
-- `zReport`, and `report` holds the report as it was when the print was asked (JSON, contract §14 ShiftReport):
-- an X report prints the figures of that moment, a Z report its frozen copy. One queue for both kinds, so a
-- printer still takes its jobs one at a time in the order they were queued. SQLite alters no constraint: the
-- table is rebuilt as it was with the new columns and checks (its indexes with it; nothing references it).
CREATE TABLE print_jobs_new (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  code TEXT NOT NULL UNIQUE,
  order_id TEXT REFERENCES orders(id),
  shift_id TEXT REFERENCES shifts(id),
  report TEXT,
  what TEXT NOT NULL CHECK (what IN ('tickets', 'receipt', 'all', 'xReport', 'zReport')),
  printer TEXT NOT NULL,
  language TEXT NOT NULL CHECK (language IN ('en', 'de', 'fr')),
  open_drawer INTEGER NOT NULL CHECK (open_drawer IN (0, 1)),
  state TEXT NOT NULL CHECK (state IN ('queued', 'printing', 'done', 'failed')),
  reason TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  printed_at INTEGER,
  -- an order's job or a shift's report, never both, never neither; a report job never opens the drawer
  CHECK ((order_id IS NULL) <> (shift_id IS NULL)),
  CHECK ((shift_id IS NULL) = (what IN ('tickets', 'receipt', 'all'))),
  CHECK ((shift_id IS NULL) = (report IS NULL)),
  CHECK (shift_id IS NULL OR open_drawer = 0)
) STRICT;
INSERT INTO print_jobs_new (seq, id, code, order_id, what, printer, language, open_drawer, state, reason, attempts, next_attempt_at, created_at, updated_at, printed_at)
SELECT seq, id, code, order_id, what, printer, language, open_drawer, state, reason, attempts, next_attempt_at, created_at, updated_at, printed_at FROM print_jobs;
DROP TABLE print_jobs;
ALTER TABLE print_jobs_new RENAME TO print_jobs;
CREATE INDEX print_jobs_queue ON print_jobs(printer, state, seq);
CREATE INDEX print_jobs_by_order ON print_jobs(order_id, seq);
CREATE INDEX print_jobs_printing ON print_jobs(seq) WHERE state = 'printing';
CREATE INDEX print_jobs_by_shift ON print_jobs(shift_id, seq) WHERE shift_id IS NOT NULL;
