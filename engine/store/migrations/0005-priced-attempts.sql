-- The cart as priced when the payment attempt was made: the order is built from it, so an order always
-- says what was charged, whatever the catalog (rates, vouchers) does during the provider call.
ALTER TABLE payment_attempts ADD COLUMN priced TEXT;
