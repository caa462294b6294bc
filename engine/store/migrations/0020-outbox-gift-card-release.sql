-- Issue #24: a terminal's gift-card parts are held at its hub within the checkout (contract §13, §10). When that
-- checkout fails afterwards (the remainder declined, the provider down, a crash), the hold must go at the hub
-- exactly once, also when the hub cannot be reached at that moment: a `gift-card-release` entry in the outbox,
-- written in the transaction that fails the attempt and delivered by the sync worker like every other entry.
-- Such an entry names no order: its `order_id` is the payment attempt's id (the hold's reference at the hub), so
-- the column can no longer reference orders(id). SQLite alters no constraint: the table is rebuilt as it was,
-- with the new kind and without that reference (its indexes and its trigger with it).
CREATE TABLE outbox_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('order', 'cancel', 'gift-card-release')),
  order_id TEXT NOT NULL, -- the order (order, cancel) or the payment attempt whose hub hold goes (gift-card-release)
  state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'conflict', 'resolved')) DEFAULT 'pending',
  idempotency_key TEXT NOT NULL,
  upstream_cart_id TEXT,
  cart_attempted_at INTEGER,
  upstream_order_id TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  conflict_code TEXT,
  conflict_message TEXT,
  conflict_at INTEGER,
  resolved_note TEXT,
  created_at INTEGER NOT NULL,
  delivered_at INTEGER,
  sent_at INTEGER
) STRICT;
INSERT INTO outbox_new (id, kind, order_id, state, idempotency_key, upstream_cart_id, cart_attempted_at, upstream_order_id, attempts,
  next_attempt_at, last_error, conflict_code, conflict_message, conflict_at, resolved_note, created_at, delivered_at, sent_at)
SELECT id, kind, order_id, state, idempotency_key, upstream_cart_id, cart_attempted_at, upstream_order_id, attempts,
  next_attempt_at, last_error, conflict_code, conflict_message, conflict_at, resolved_note, created_at, delivered_at, sent_at
FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox(id) WHERE state = 'pending';
CREATE INDEX outbox_by_order ON outbox(order_id, kind);
CREATE INDEX outbox_delivered_at ON outbox(delivered_at) WHERE delivered_at IS NOT NULL;
CREATE TRIGGER outbox_order_starts_from_upstream_hold AFTER INSERT ON outbox
WHEN NEW.kind = 'order'
BEGIN
  UPDATE outbox SET upstream_cart_id = h.upstream_cart_id, cart_attempted_at = h.created_at
  FROM (SELECT uh.upstream_cart_id, uh.created_at FROM upstream_holds uh JOIN orders o ON o.cart_id = uh.local_cart_id WHERE o.id = NEW.order_id) AS h
  WHERE outbox.id = NEW.id;
END;
