-- Issue #26 (contract §15): signed tickets; the SQLite migration of the same number explains. Every engine process
-- sharing this database signs with the one signing key: the unique partial index lets the first start of several
-- processes at once keep one (INSERT … ON CONFLICT DO NOTHING, then read back).
CREATE TABLE ticket_keys (
  key_id TEXT COLLATE "C" PRIMARY KEY,
  public_key TEXT COLLATE "C" NOT NULL,
  private_key TEXT COLLATE "C" NULL,
  engine TEXT COLLATE "C" NOT NULL,
  created_at TEXT COLLATE "C" NOT NULL,
  signing INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX ticket_keys_one_signing ON ticket_keys (signing) WHERE signing = 1;

ALTER TABLE tickets ADD COLUMN signed_code TEXT NULL;

CREATE TABLE ticket_revocations (
  seq BIGSERIAL PRIMARY KEY,
  code TEXT COLLATE "C" NOT NULL UNIQUE,
  occurrence_id TEXT COLLATE "C" NOT NULL,
  at TEXT COLLATE "C" NOT NULL
);
