-- Issue #26 (contract §15): tickets checked in at the door, as the SQLite twin (store/migrations/0027): every
-- accepted check-in in the order it was decided, and who is inside now (one row per ticket ever admitted).
CREATE TABLE checkins (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT COLLATE "C" NOT NULL UNIQUE,
  ticket_code TEXT COLLATE "C" NOT NULL,
  order_id TEXT COLLATE "C" NOT NULL,
  occurrence_id TEXT COLLATE "C" NOT NULL,
  direction TEXT COLLATE "C" NOT NULL CHECK (direction IN ('in', 'out')),
  gate TEXT NOT NULL,
  at TEXT COLLATE "C" NOT NULL,
  source TEXT,
  synced INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checkins_unsynced ON checkins (seq) WHERE synced = 0;
CREATE TABLE ticket_presence (
  ticket_code TEXT COLLATE "C" PRIMARY KEY,
  occurrence_id TEXT COLLATE "C" NOT NULL,
  inside INTEGER NOT NULL,
  in_at TEXT COLLATE "C" NOT NULL,
  gate TEXT NOT NULL
);
CREATE INDEX ticket_presence_by_occurrence ON ticket_presence (occurrence_id, inside);
