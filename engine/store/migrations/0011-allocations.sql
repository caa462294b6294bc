-- Allocations (contract §10). At a hub: places of an inventory item granted to a terminal, which count as
-- taken (inventory_items.allocated, the sum of the terminal rows) until the terminal sells them here or gives
-- them back, or the allocation lapses. A terminal is the API key that asked for them.
ALTER TABLE inventory_items ADD COLUMN allocated INTEGER NOT NULL DEFAULT 0 CHECK (allocated >= 0);

CREATE TABLE allocations (
  terminal_id TEXT NOT NULL, -- api_keys.id of the terminal
  occurrence_id TEXT NOT NULL,
  inventory_item_id TEXT NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity >= 0),
  expires_at INTEGER NOT NULL, -- epoch ms; renewed while the terminal calls
  PRIMARY KEY (terminal_id, occurrence_id, inventory_item_id),
  FOREIGN KEY (occurrence_id, inventory_item_id) REFERENCES inventory_items(occurrence_id, id)
) STRICT, WITHOUT ROWID;
CREATE INDEX allocations_live_by_expiry ON allocations(expires_at) WHERE quantity > 0;

-- Answers of POST /allocations by idempotency key, so a retried change is applied once.
CREATE TABLE allocation_requests (
  terminal_id TEXT NOT NULL,
  key TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  answer TEXT NOT NULL, -- JSON
  created_at INTEGER NOT NULL,
  PRIMARY KEY (terminal_id, key)
) STRICT, WITHOUT ROWID;
CREATE INDEX allocation_requests_by_age ON allocation_requests(created_at);

-- At a terminal: the places it holds from its hub and has not sold yet ("in hand"), per inventory item,
-- with the lapse deadline the hub gave (in this terminal's clock) and the venue's availability last seen.
CREATE TABLE holdings (
  occurrence_id TEXT NOT NULL,
  inventory_item_id TEXT NOT NULL,
  in_hand INTEGER NOT NULL DEFAULT 0 CHECK (in_hand >= 0),
  lapses_at INTEGER NOT NULL DEFAULT 0,
  venue_available INTEGER,
  venue_seen_at INTEGER,
  PRIMARY KEY (occurrence_id, inventory_item_id)
) STRICT, WITHOUT ROWID;

-- A sale on the terminal (held -> sold) uses up places in hand in the same statement's transaction: the
-- hub consumes the same places from the allocation when the order arrives there.
CREATE TRIGGER holdings_consumed_by_sale AFTER UPDATE OF sold ON inventory_items
WHEN NEW.sold > OLD.sold
BEGIN
  UPDATE holdings SET in_hand = MAX(in_hand - (NEW.sold - OLD.sold), 0)
  WHERE occurrence_id = NEW.occurrence_id AND inventory_item_id = NEW.id;
END;

-- At a terminal of a plain v3 upstream: the cart held upstream for a local cart before it was made here
-- (contract §10). When the local cart becomes an order, its outbox entry starts from that upstream cart.
CREATE TABLE upstream_holds (
  local_cart_id TEXT PRIMARY KEY,
  upstream_cart_id TEXT, -- NULL: the request's answer was lost; a hold may exist upstream until it lapses
  created_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TRIGGER outbox_order_starts_from_upstream_hold AFTER INSERT ON outbox
WHEN NEW.kind = 'order'
BEGIN
  UPDATE outbox SET upstream_cart_id = h.upstream_cart_id, cart_attempted_at = h.created_at
  FROM (SELECT uh.upstream_cart_id, uh.created_at FROM upstream_holds uh JOIN orders o ON o.cart_id = uh.local_cart_id WHERE o.id = NEW.order_id) AS h
  WHERE outbox.id = NEW.id;
END;
