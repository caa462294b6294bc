-- Seat maps at scale (issue #16). Two counters tell a client what changed since it last looked:
--   catalog: bumped by every catalog import (store/catalog-writer.ts) — the static seat map may have changed;
--   stock:   bumped by every change of an inventory item's held, sold, allocated or capacity, by whichever writer.
-- Each inventory item remembers the stock counter of its last change, so GET /occurrences/{id}/availability
-- ?since=<catalog>.<stock> answers only the items changed after that token. The counters live in the
-- database, so a token stays meaningful across restarts of the engine.
CREATE TABLE stock_clock (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  catalog INTEGER NOT NULL,
  stock INTEGER NOT NULL
) STRICT;
INSERT INTO stock_clock (id, catalog, stock) VALUES (1, 1, 0);

ALTER TABLE inventory_items ADD COLUMN stock_version INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER inventory_stock_changed AFTER UPDATE OF held, sold, allocated, capacity ON inventory_items
WHEN NEW.held IS NOT OLD.held OR NEW.sold IS NOT OLD.sold OR NEW.allocated IS NOT OLD.allocated OR NEW.capacity IS NOT OLD.capacity
BEGIN
  UPDATE stock_clock SET stock = stock + 1 WHERE id = 1;
  UPDATE inventory_items SET stock_version = (SELECT stock FROM stock_clock WHERE id = 1)
  WHERE occurrence_id = NEW.occurrence_id AND id = NEW.id;
END;
