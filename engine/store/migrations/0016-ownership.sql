-- Ownership (issue #22): every cart and order belongs to the API key that made it, so one key cannot read,
-- change or cancel another's. A key's `owner` is who its carts and orders belong to: its own id (NULL here),
-- or a name shared by the keys of one role that replace each other (the kiosk page's key of each start, the
-- box office's staff sessions), so a restart or a new sign-in keeps the sale on screen.
ALTER TABLE api_keys ADD COLUMN owner TEXT;
-- Staff sessions end: an expired key answers 401 like a revoked one. NULL: never expires.
ALTER TABLE api_keys ADD COLUMN expires_at INTEGER;

-- NULL: a cart of the legacy v1 facade (a channel, no key) or one made before this migration.
ALTER TABLE carts ADD COLUMN owner TEXT;

ALTER TABLE orders ADD COLUMN owner TEXT;
UPDATE orders SET owner = api_key_id;
CREATE INDEX orders_by_owner ON orders(owner);

-- Keys made before this migration saw every order with orders:read / orders:write: they keep doing so (the new
-- scope orders:any), so a venue upgrading does not silently lose its integrations. Not the keys of terminals
-- (orders:import), which must see only their own orders at a hub, nor the UI's key, replaced at every start.
UPDATE api_keys SET scopes = json_insert(scopes, '$[#]', 'orders:any')
WHERE revoked_at IS NULL AND name <> 'ui-session'
  AND EXISTS (SELECT 1 FROM json_each(api_keys.scopes) WHERE value IN ('orders:read', 'orders:write'))
  AND NOT EXISTS (SELECT 1 FROM json_each(api_keys.scopes) WHERE value IN ('orders:import', 'orders:any', 'admin'));

-- The box office's staff PIN (its scrypt hash) when the engine made one itself; one row at most.
CREATE TABLE staff_pin (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
