-- Orders a terminal imported in one request (POST /api/v3/orders/import): each remembers the terminal's
-- Idempotency-Key and its own order id (the payment reference) for good, not just the 24 hours of
-- idempotency_keys, so an import repeated after any delay answers the order it made the first time.
CREATE TABLE order_imports (
  api_key_id TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  reference TEXT NOT NULL UNIQUE,
  order_id TEXT NOT NULL REFERENCES orders(id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (api_key_id, idempotency_key)
) STRICT, WITHOUT ROWID;

-- The sync status's recent delivery rate reads the last minute of deliveries.
CREATE INDEX outbox_delivered_at ON outbox(delivered_at) WHERE delivered_at IS NOT NULL;

-- When an order entry was first sent upstream (to a hub's import): an order cancelled here afterwards may
-- already be there, so it is still sent — the hub answers the order it made — and its cancellation follows.
-- Cleared when the upstream refuses the entry for good (then it certainly is not there).
ALTER TABLE outbox ADD COLUMN sent_at INTEGER;
