-- The sync outbox: one row per local order and per cancellation, written in the same transaction as the
-- order or the cancellation, delivered upstream in id order by a single worker.
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('order', 'cancel')),
  order_id TEXT NOT NULL REFERENCES orders(id),
  state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'conflict', 'resolved')) DEFAULT 'pending',
  idempotency_key TEXT NOT NULL, -- fixed per entry: every retry lands on the same upstream order
  upstream_cart_id TEXT, -- recorded before checkout
  cart_attempted_at INTEGER, -- first POST /carts sent: a lost answer may have left a hold upstream
  upstream_order_id TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  conflict_code TEXT,
  conflict_message TEXT,
  conflict_at INTEGER,
  resolved_note TEXT,
  created_at INTEGER NOT NULL,
  delivered_at INTEGER
) STRICT;
CREATE INDEX outbox_pending ON outbox(id) WHERE state = 'pending';
CREATE INDEX outbox_by_order ON outbox(order_id, kind);

CREATE TABLE sync_state (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT, WITHOUT ROWID;
