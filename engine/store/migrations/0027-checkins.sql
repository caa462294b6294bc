-- Issue #26 (contract §15): tickets checked in at the door. `checkins` is every accepted check-in ("in" or "out"),
-- in the order it was decided; refused ones are not stored. `id` is made where the check-in was decided (a
-- terminal's offline check-in keeps its id at the hub: the import is idempotent by it); `source` is, at a hub,
-- the terminal it came from; `synced` = 1 once the hub has it (0: an offline check-in still to send).
CREATE TABLE checkins (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  ticket_code TEXT NOT NULL,
  order_id TEXT NOT NULL,
  occurrence_id TEXT NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ('in', 'out')),
  gate TEXT NOT NULL,
  at TEXT NOT NULL,
  source TEXT,
  synced INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX checkins_unsynced ON checkins (seq) WHERE synced = 0;
-- Who is inside now, one row per ticket ever admitted: `inside` 1 after an "in", 0 after an "out"; `in_at` and
-- `gate` of its last "in". Read and written under the ticket's lock (Locks.ticket) in the check-in's transaction.
CREATE TABLE ticket_presence (
  ticket_code TEXT PRIMARY KEY,
  occurrence_id TEXT NOT NULL,
  inside INTEGER NOT NULL,
  in_at TEXT NOT NULL,
  gate TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX ticket_presence_by_occurrence ON ticket_presence (occurrence_id, inside);
