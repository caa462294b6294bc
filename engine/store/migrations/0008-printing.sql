-- Print jobs (contract §12): one row per job, worked through one at a time per printer in insertion order.
-- state: queued (waiting or retrying while the printer is unreachable), printing (bytes may be on their way),
-- done (the printer took every byte), failed (reason says why; never resent on its own).
CREATE TABLE print_jobs (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  code TEXT NOT NULL UNIQUE,
  order_id TEXT NOT NULL REFERENCES orders(id),
  what TEXT NOT NULL CHECK (what IN ('tickets', 'receipt', 'all')),
  printer TEXT NOT NULL,
  language TEXT NOT NULL CHECK (language IN ('en', 'de', 'fr')),
  open_drawer INTEGER NOT NULL CHECK (open_drawer IN (0, 1)),
  state TEXT NOT NULL CHECK (state IN ('queued', 'printing', 'done', 'failed')),
  reason TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  printed_at INTEGER
) STRICT;
CREATE INDEX print_jobs_queue ON print_jobs(printer, state, seq);
CREATE INDEX print_jobs_by_order ON print_jobs(order_id, seq);

-- The language of the checkout that made an order (its Accept-Language): tickets and receipts print in it.
CREATE TABLE order_languages (
  order_id TEXT PRIMARY KEY REFERENCES orders(id),
  language TEXT NOT NULL CHECK (language IN ('en', 'de', 'fr'))
) STRICT, WITHOUT ROWID;
