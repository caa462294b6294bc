-- Issue #26 (contract §15, §10): a hub's DUPLICATE_ENTRY conflicts. A terminal's offline check-in ("in") for a
-- ticket that was inside at the hub already (admitted at another gate, no "out" between) is recorded like every
-- other, and adds a row here: the second entry (`checkin_id`, its check-in's id, once), the first (`first_gate`,
-- `first_at`), the ticket and its order. Listed in GET /sync/status `conflicts` (kind `checkin`) until staff
-- resolve it with a note (POST /sync/checkin-conflicts/{id}/resolve).
CREATE TABLE checkin_conflicts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  checkin_id TEXT NOT NULL UNIQUE,
  ticket_code TEXT NOT NULL,
  order_id TEXT NOT NULL,
  occurrence_id TEXT NOT NULL,
  first_gate TEXT NOT NULL,
  first_at TEXT NOT NULL,
  second_gate TEXT NOT NULL,
  second_at TEXT NOT NULL,
  source TEXT,
  created_at INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'resolved')),
  resolved_note TEXT,
  resolved_at INTEGER
) STRICT;
CREATE INDEX checkin_conflicts_open ON checkin_conflicts (id) WHERE state = 'open';
