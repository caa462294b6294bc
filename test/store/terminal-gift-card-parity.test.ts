import { afterAll, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../engine/catalog/demo';
import { createCheckoutRepo, type CheckoutRepo } from '../../engine/store/checkout-repo';
import { createOutboxRepo, type OutboxRepo } from '../../engine/store/outbox-repo';
import { createPgCheckoutRepo } from '../../engine/store/postgres/checkout-repo';
import { createPgOutboxRepo } from '../../engine/store/postgres/outbox-repo';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { cleanUp, inTransaction, seededPair, type Either, type Exec } from './pg-b-fixtures';

/**
 * Issue #24 at a terminal, the storage it adds, on both databases (migration 0020): a pending attempt's charge set
 * once the hub has held its gift-card parts (checkout.setCharge, only while pending), and the outbox's
 * `gift-card-release` entries, which name a payment attempt rather than an order.
 */

afterAll(cleanUp);

async function seed(exec: Exec): Promise<void> {
  await exec(`INSERT INTO carts (id, occurrence_id, event_id, location_id, kind, currency, status, created_at, expires_at)
    VALUES ('c1', 'brass-2027-03-12', 'midnight-brass', 'stadthalle', 'ticket', 'EUR', 'held', 1, 99999999)`);
}

async function steps(checkout: Either<CheckoutRepo>, outbox: Either<OutboxRepo>) {
  const log: unknown[] = [];
  await checkout.insertAttempt({ id: 'pay_1', cartId: 'c1', apiKeyId: 'k', idempotencyKey: 'i', method: 'cash', amount: 7000, currency: 'EUR', request: '{"hub":{}}', priced: null, createdAt: 2 });
  log.push(await checkout.setCharge('pay_1', { method: 'cash', amount: 2000, request: '{"hub":{"parts":[]}}' }));
  const attempt = await checkout.attempt('pay_1');
  log.push({ method: attempt?.method, amount: attempt?.amount, request: attempt?.request, state: attempt?.state });
  await checkout.move('pay_1', { type: 'failed', outcome: 'not_charged' });
  log.push(await checkout.setCharge('pay_1', { method: 'giftCard', amount: 7000, request: '{}' }));
  await outbox.add('gift-card-release', 'pay_1', 3);
  log.push((await outbox.ready(10, 10)).map((entry) => ({ kind: entry.kind, orderId: entry.orderId, state: entry.state })));
  return log;
}

describe.skipIf(!postgresAvailable())(postgresSuite('a terminal\'s gift-card storage, parity with SQLite'), () => {
  it('sets a pending attempt\'s charge (and only a pending one\'s) and keeps gift-card-release entries of an attempt', async () => {
    const { db, pool } = await seededPair(demoCatalog(), seed);
    const sqliteLog = await steps(createCheckoutRepo(db), createOutboxRepo(db));
    const pgLog = await inTransaction(pool, async (tx) => steps(createPgCheckoutRepo(tx), createPgOutboxRepo(tx)));
    expect(pgLog).toEqual(sqliteLog);
    expect(sqliteLog).toEqual([
      true,
      { method: 'cash', amount: 2000, request: '{"hub":{"parts":[]}}', state: 'pending' },
      false,
      [{ kind: 'gift-card-release', orderId: 'pay_1', state: 'pending' }],
    ]);
  });
});
