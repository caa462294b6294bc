-- Issue #23: an order's payment (contract §4 PaymentView) is derived on read from its payment attempt, no longer
-- copied into orders.payment. What the attempt lacked is when its refund was confirmed: `refunded_at` (epoch ms),
-- set by the move to `refunded` (store/postgres/checkout-repo.ts). Old refunded attempts take it from their order's
-- stored view (its `refundedAt`, an ISO timestamp), else from the order's cancellation — as the SQLite twin does.
-- orders.payment stays for databases whose orders have no attempt; new orders write it empty.
ALTER TABLE payment_attempts ADD COLUMN refunded_at BIGINT;
UPDATE payment_attempts a SET refunded_at = COALESCE(
    ROUND(EXTRACT(EPOCH FROM ((o.payment::jsonb) ->> 'refundedAt')::timestamptz) * 1000)::bigint,
    o.cancelled_at)
  FROM orders o
  WHERE o.id = a.order_id AND a.state = 'refunded' AND o.payment LIKE '{%';
