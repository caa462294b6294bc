-- Orders are immutable snapshots of the priced cart at checkout, plus status changes.
CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  cart_id TEXT NOT NULL UNIQUE REFERENCES carts(id),
  status TEXT NOT NULL CHECK (status IN ('confirmed', 'cancelled')),
  created_at INTEGER NOT NULL,
  cancelled_at INTEGER,
  currency TEXT NOT NULL,
  total INTEGER NOT NULL,
  lines TEXT NOT NULL, -- JSON { items, receiptLines } in the order currency
  payment TEXT NOT NULL, -- JSON, method-specific; never a card number
  api_key_id TEXT
) STRICT;
CREATE INDEX orders_newest_first ON orders(created_at DESC, id DESC);

CREATE TABLE tickets (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders(id),
  item_id TEXT NOT NULL,
  code TEXT NOT NULL UNIQUE,
  position INTEGER NOT NULL
) STRICT;
CREATE INDEX tickets_by_order ON tickets(order_id, position);

CREATE TABLE gift_cards (
  code TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders(id),
  item_id TEXT NOT NULL,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'void'))
) STRICT;
CREATE INDEX gift_cards_by_order ON gift_cards(order_id);

-- Idempotency keys of POST /orders, scoped to the API key that sent them, kept 24 hours.
CREATE TABLE idempotency_keys (
  api_key_id TEXT NOT NULL,
  key TEXT NOT NULL,
  cart_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_progress', 'completed', 'retired')),
  status INTEGER,
  body TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (api_key_id, key)
) STRICT, WITHOUT ROWID;
CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);

-- A payment attempt is written before the provider is called; its id is the reference the provider
-- deduplicates on, so a restart can ask the provider what became of it.
CREATE TABLE payment_attempts (
  id TEXT PRIMARY KEY,
  cart_id TEXT NOT NULL REFERENCES carts(id),
  api_key_id TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  method TEXT NOT NULL,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  request TEXT NOT NULL, -- JSON of the payment as sent (token, tendered); never a card number
  state TEXT NOT NULL CHECK (state IN ('pending', 'captured', 'refunding', 'refunded', 'failed')),
  created_at INTEGER NOT NULL,
  order_id TEXT
) STRICT;
CREATE INDEX payment_attempts_pending ON payment_attempts(cart_id) WHERE state = 'pending';

-- Voucher redemptions reserved by a pending attempt, so a limited voucher is never redeemed twice.
CREATE TABLE voucher_reservations (
  attempt_id TEXT NOT NULL REFERENCES payment_attempts(id),
  code TEXT NOT NULL,
  PRIMARY KEY (attempt_id, code)
) STRICT, WITHOUT ROWID;

-- The built-in simulated payment provider's own ledger (a real provider keeps this on its side).
CREATE TABLE psp_charges (
  reference TEXT PRIMARY KEY,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  token TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('approved', 'refunded')),
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE psp_challenges (
  reference TEXT PRIMARY KEY,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('pending', 'approve', 'reject')),
  authentication_result TEXT UNIQUE,
  used INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
) STRICT;
