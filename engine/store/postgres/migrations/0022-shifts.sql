-- Issue #25: shifts and the cash drawer (contract §14), as their SQLite twins (store/migrations/0022). One shift
-- open per database — every engine process sharing it is one engine: the partial unique index refuses a second
-- open row even when two processes race (the loser answers 409 SHIFT_ALREADY_OPEN). z_number is unique: two
-- racing closes cannot both number a Z report.
CREATE TABLE shifts (
  id TEXT COLLATE "C" PRIMARY KEY,
  number BIGINT NOT NULL UNIQUE,
  status TEXT COLLATE "C" NOT NULL CHECK (status IN ('open', 'closed')),
  opened_at BIGINT NOT NULL,
  opening_float BIGINT NOT NULL CHECK (opening_float >= 0),
  currency TEXT COLLATE "C" NOT NULL,
  staff TEXT,
  closed_at BIGINT,
  z_number BIGINT UNIQUE,
  expected BIGINT,
  counted BIGINT,
  difference BIGINT,
  note TEXT,
  report TEXT,
  CHECK ((status = 'open') = (z_number IS NULL))
);
CREATE UNIQUE INDEX shifts_one_open ON shifts(status) WHERE status = 'open';
CREATE TABLE cash_movements (
  id TEXT COLLATE "C" PRIMARY KEY,
  shift_id TEXT COLLATE "C" NOT NULL REFERENCES shifts(id),
  kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('payIn', 'payOut')),
  amount BIGINT NOT NULL CHECK (amount > 0),
  currency TEXT COLLATE "C" NOT NULL,
  reason TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX cash_movements_by_shift ON cash_movements(shift_id, at);
