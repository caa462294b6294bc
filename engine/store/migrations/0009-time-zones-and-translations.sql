-- A venue's IANA time zone (contract §2, issue #14): showtimes, tickets and receipts use the venue's clock.
ALTER TABLE locations ADD COLUMN time_zone TEXT;

-- Translated catalog names: `name` columns keep the default (English, else the first translation given);
-- every translation given in the catalog document is kept here as a JSON object { "en": …, "de": …, "fr": … }.
-- kind: location | event | extra | area | priceOption; scope: the event (extras) or occurrence (areas, price
-- options) the id is unique in, '' otherwise. Rewritten on each import.
CREATE TABLE catalog_names (
  kind TEXT NOT NULL,
  scope TEXT NOT NULL,
  id TEXT NOT NULL,
  names TEXT NOT NULL,
  PRIMARY KEY (kind, scope, id)
) STRICT, WITHOUT ROWID;
