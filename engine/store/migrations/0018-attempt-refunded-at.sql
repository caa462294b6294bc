-- Issue #23: an order's payment (contract §4 PaymentView) is derived on read from its payment attempt, no longer
-- copied into orders.payment. Method, amount, reference, tendered and authentication were on the attempt already
-- (its columns and its `request`); what it lacked is when its refund was confirmed. `refunded_at` (epoch ms) is set
-- by the move to `refunded` (store/checkout-repo.ts). Old refunded attempts take it from their order's stored view
-- (its `refundedAt`, an ISO timestamp), else from the order's cancellation. orders.payment stays for databases whose
-- orders have no attempt (engine/orders/order-view.ts falls back to it); new orders write it empty.
ALTER TABLE payment_attempts ADD COLUMN refunded_at INTEGER;
UPDATE payment_attempts SET refunded_at = (
  SELECT COALESCE(
    CAST(ROUND((julianday(json_extract(o.payment, '$.refundedAt')) - 2440587.5) * 86400000) AS INTEGER),
    o.cancelled_at)
  FROM orders o WHERE o.id = payment_attempts.order_id AND json_valid(o.payment))
WHERE state = 'refunded' AND order_id IS NOT NULL;
