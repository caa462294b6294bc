-- Why a payment attempt failed (declined, risk_declined, action_required, unavailable, not_charged): a risk
-- decline ends the cart's checkout for every method (spec §7.3), so the engine must remember it.
ALTER TABLE payment_attempts ADD COLUMN outcome TEXT;
CREATE INDEX payment_attempts_by_cart ON payment_attempts(cart_id);

-- Voucher policy: a cart holds one voucher unless every voucher in it combines.
ALTER TABLE vouchers ADD COLUMN combinable INTEGER NOT NULL DEFAULT 0 CHECK (combinable IN (0, 1));

-- The simulated provider: a reference it answered "none" for is closed, so a charge that arrives late for
-- it is never taken (the engine settled that attempt as not charged). A 3-D Secure challenge is bound to the
-- cart (shopper reference) and the attempt that raised it; its result is spent by one attempt only.
CREATE TABLE psp_closed_references (
  reference TEXT PRIMARY KEY,
  closed_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
ALTER TABLE psp_challenges ADD COLUMN shopper_reference TEXT;
ALTER TABLE psp_challenges ADD COLUMN attempt_reference TEXT;
ALTER TABLE psp_challenges ADD COLUMN used_by TEXT;
