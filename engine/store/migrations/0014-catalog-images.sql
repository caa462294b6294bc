-- Pictures in the catalog (issue #14): an event's picture and a venue's banner, shown by the kiosk. Each is an
-- https: URL or a data:image/ URL (engine/domain/image-url.ts); NULL when the catalog gives none.
ALTER TABLE events ADD COLUMN image TEXT;
ALTER TABLE locations ADD COLUMN banner TEXT;
