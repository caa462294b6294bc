-- Catalog. Ids of areas, price options and inventory items are unique within their occurrence, so a seat
-- map can reuse seat ids across performances. `active = 0` marks rows a later import dropped: they stay
-- for carts and orders that name them but are no longer listed or sold.
CREATE TABLE locations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  currencies TEXT NOT NULL, -- JSON array, base currency first
  position INTEGER NOT NULL,
  active INTEGER NOT NULL DEFAULT 1
) STRICT;

CREATE TABLE exchange_rates (
  from_currency TEXT NOT NULL,
  to_currency TEXT NOT NULL,
  rate TEXT NOT NULL, -- exact decimal string: units of `to` per one `from`
  valid_until INTEGER, -- epoch ms; NULL = no end
  PRIMARY KEY (from_currency, to_currency)
) STRICT, WITHOUT ROWID;

CREATE TABLE events (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  location_id TEXT NOT NULL REFERENCES locations(id),
  kind TEXT NOT NULL CHECK (kind IN ('ticket', 'giftCard')),
  position INTEGER NOT NULL,
  active INTEGER NOT NULL DEFAULT 1
) STRICT;

CREATE TABLE extras (
  event_id TEXT NOT NULL REFERENCES events(id),
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  price INTEGER NOT NULL, -- minor units of the location's base currency
  max_quantity INTEGER,
  position INTEGER NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (event_id, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE occurrences (
  id TEXT PRIMARY KEY,
  event_id TEXT NOT NULL REFERENCES events(id),
  starts_at TEXT NOT NULL,
  on_sale INTEGER NOT NULL,
  position INTEGER NOT NULL,
  active INTEGER NOT NULL DEFAULT 1
) STRICT;
CREATE INDEX occurrences_event ON occurrences(event_id, position);

CREATE TABLE areas (
  occurrence_id TEXT NOT NULL REFERENCES occurrences(id),
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  seating TEXT NOT NULL CHECK (seating IN ('general', 'assigned')),
  position INTEGER NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (occurrence_id, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE price_options (
  occurrence_id TEXT NOT NULL,
  id TEXT NOT NULL,
  area_id TEXT NOT NULL,
  name TEXT NOT NULL,
  price INTEGER NOT NULL, -- minor units of the location's base currency
  position INTEGER NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (occurrence_id, id),
  FOREIGN KEY (occurrence_id, area_id) REFERENCES areas(occurrence_id, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE inventory_items (
  occurrence_id TEXT NOT NULL,
  id TEXT NOT NULL,
  area_id TEXT NOT NULL,
  label TEXT,
  capacity INTEGER NOT NULL CHECK (capacity >= 0),
  held INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0),
  sold INTEGER NOT NULL DEFAULT 0 CHECK (sold >= 0),
  position INTEGER NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (occurrence_id, id),
  FOREIGN KEY (occurrence_id, area_id) REFERENCES areas(occurrence_id, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE vouchers (
  code TEXT PRIMARY KEY, -- stored upper-case; codes match case-insensitively
  percent_off TEXT, -- exact decimal string
  amount_off INTEGER, -- minor units of amount_off_currency
  amount_off_currency TEXT,
  valid_until INTEGER, -- epoch ms
  max_redemptions INTEGER,
  redeemed INTEGER NOT NULL DEFAULT 0,
  event_ids TEXT, -- JSON array or NULL for every event
  active INTEGER NOT NULL DEFAULT 1
) STRICT;

-- Carts. A cart holds stock through inventory_items.held while status = 'held' and expires_at is ahead;
-- the moment expires_at passes it is gone for every reader, and the next write releases its stock.
CREATE TABLE carts (
  id TEXT PRIMARY KEY,
  occurrence_id TEXT NOT NULL REFERENCES occurrences(id),
  event_id TEXT NOT NULL,
  location_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('ticket', 'giftCard')),
  currency TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('held', 'deleted', 'expired', 'released', 'ordered')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  order_id TEXT
) STRICT;
CREATE INDEX carts_held_by_expiry ON carts(expires_at) WHERE status = 'held';

CREATE TABLE cart_items (
  id TEXT PRIMARY KEY,
  cart_id TEXT NOT NULL REFERENCES carts(id),
  position INTEGER NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('admission', 'extra', 'giftCard')),
  name TEXT NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  unit_price INTEGER NOT NULL, -- minor units of the base currency, fixed when the line was added
  inventory_item_id TEXT,
  price_option_id TEXT,
  extra_id TEXT
) STRICT;
CREATE INDEX cart_items_by_cart ON cart_items(cart_id, position);

CREATE TABLE cart_vouchers (
  cart_id TEXT NOT NULL REFERENCES carts(id),
  code TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (cart_id, code)
) STRICT, WITHOUT ROWID;

-- API keys: only a SHA-256 of the key is kept.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL, -- JSON array
  created_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;
