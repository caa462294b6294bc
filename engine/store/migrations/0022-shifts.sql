-- Issue #25: shifts and the cash drawer (contract §14). One shift open at a time per database (the partial unique
-- index): a till's engine, or every engine process sharing a PostgreSQL database. `number` runs 1, 2, 3 … at
-- open; `z_number` 1, 2, 3 … at close, without gaps (max + 1 in the closing transaction, under the journal head
-- lock). Money in minor units of `currency`, the base currency of the engine's location when the shift opened.
-- Times in epoch milliseconds. `report`: the Z report (JSON, contract §14) frozen at close; never changed after.
CREATE TABLE shifts (
  id TEXT PRIMARY KEY,
  number INTEGER NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
  opened_at INTEGER NOT NULL,
  opening_float INTEGER NOT NULL CHECK (opening_float >= 0),
  currency TEXT NOT NULL,
  staff TEXT,
  closed_at INTEGER,
  z_number INTEGER UNIQUE,
  expected INTEGER,
  counted INTEGER,
  difference INTEGER,
  note TEXT,
  report TEXT,
  CHECK ((status = 'open') = (z_number IS NULL))
) STRICT;
CREATE UNIQUE INDEX shifts_one_open ON shifts(status) WHERE status = 'open';
-- pay-ins and pay-outs of a shift's drawer (amount > 0; the kind says which way)
CREATE TABLE cash_movements (
  id TEXT PRIMARY KEY,
  shift_id TEXT NOT NULL REFERENCES shifts(id),
  kind TEXT NOT NULL CHECK (kind IN ('payIn', 'payOut')),
  amount INTEGER NOT NULL CHECK (amount > 0),
  currency TEXT NOT NULL,
  reason TEXT NOT NULL,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX cash_movements_by_shift ON cash_movements(shift_id, at);
