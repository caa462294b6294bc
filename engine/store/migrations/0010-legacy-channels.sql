-- The legacy v1 basket interface (contract §11). A channel is a v1 client; its secret is never stored:
-- it is derived as HMAC-SHA256(install master key, channel id), the master key living in a 0600 file in the
-- data folder (see channel-repo.ts). `secret_hash` is the SHA-256 of the secret as issued, so a replaced or
-- lost master key is noticed instead of silently refusing every checksum.
CREATE TABLE channels (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;

-- A v1 basket is a client-chosen reference, per channel, naming the v3 cart behind it. The row outlives
-- its cart (a lapsed or cleared basket answers 404 with CART_EXPIRED, an unknown one RESOURCE_NOT_FOUND).
CREATE TABLE v1_baskets (
  channel_id TEXT NOT NULL REFERENCES channels(id),
  reference TEXT NOT NULL,
  cart_id TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (channel_id, reference)
) STRICT, WITHOUT ROWID;
CREATE INDEX v1_baskets_by_cart ON v1_baskets (cart_id);

-- Calls to /api/v1 per channel and route, for GET /api/v3/legacy/usage. `channel_id` is '' for calls
-- that named no valid channel; `route` is "METHOD /pattern", or "METHOD (unmatched)".
CREATE TABLE v1_usage (
  channel_id TEXT NOT NULL,
  route TEXT NOT NULL,
  calls INTEGER NOT NULL,
  errors INTEGER NOT NULL,
  first_at TEXT NOT NULL,
  last_at TEXT NOT NULL,
  PRIMARY KEY (channel_id, route)
) STRICT, WITHOUT ROWID;
