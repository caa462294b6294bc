-- Contract §16: several engine processes share this database, so "a request of this process is working on this
-- payment attempt" can no longer live in memory alone. `lease_until` (epoch ms) says that some process — a
-- checkout asking the provider, a sweep settling what another left — works on the attempt until then; NULL or
-- past: nobody does, and a retry with its idempotency key or a sweep may take it over (store/postgres/checkout-repo.ts
-- claimAttempt). A process that dies leaves its lease to run out (one provider deadline).
ALTER TABLE payment_attempts ADD COLUMN lease_until BIGINT;
