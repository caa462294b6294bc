-- Two look-ups of payment_attempts that scanned the whole table, so grew with the order history: the open
-- attempts a start settles (pending or refunding, oldest first) and the attempt of an order (cancel).
CREATE INDEX payment_attempts_open ON payment_attempts(created_at) WHERE state IN ('pending', 'refunding');
CREATE INDEX payment_attempts_by_order ON payment_attempts(order_id) WHERE order_id IS NOT NULL;
