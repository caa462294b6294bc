-- Issue #24: the outbox's `gift-card-release` entries, as its SQLite twin (store/migrations/0020): a terminal
-- checkout that fails after its gift-card parts were held at the hub releases them there through the outbox.
-- Such an entry's order_id is the payment attempt's id (the hold's reference), so it references no order.
ALTER TABLE outbox DROP CONSTRAINT outbox_order_id_fkey;
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN ('order', 'cancel', 'gift-card-release'));
