-- Issue #26 (contract §15): signed tickets. Each engine signs its tickets with an Ed25519 key of its own, made at
-- its first start; rotation adds a new signing key and keeps the earlier ones (signing = 0) so their tickets still
-- verify. Keys learned from other engines (a hub's terminals, a gate's hub) have no private key.
CREATE TABLE ticket_keys (
  key_id TEXT PRIMARY KEY,
  public_key TEXT NOT NULL,
  private_key TEXT NULL,
  engine TEXT NOT NULL,
  created_at TEXT NOT NULL,
  signing INTEGER NOT NULL DEFAULT 0
) STRICT;
-- at most one signing key: two processes making the first key at once keep one
CREATE UNIQUE INDEX ticket_keys_one_signing ON ticket_keys (signing) WHERE signing = 1;

-- the K1 code of a ticket's QR; NULL for tickets sold before (they work by their 20-character code)
ALTER TABLE tickets ADD COLUMN signed_code TEXT NULL;

-- tickets of cancelled orders: made by the cancellation here, or pulled from the hub (insert-or-ignore by code)
CREATE TABLE ticket_revocations (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE,
  occurrence_id TEXT NOT NULL,
  at TEXT NOT NULL
) STRICT;
