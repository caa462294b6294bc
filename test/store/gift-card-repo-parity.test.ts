import { afterAll, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../engine/catalog/demo';
import { createGiftCardRepo, type GiftCardRepo } from '../../engine/store/gift-card-repo';
import { createPgGiftCardRepo } from '../../engine/store/postgres/gift-card-repo';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { cleanUp, inTransaction, seededPair, type Either, type Exec } from './pg-b-fixtures';

/**
 * Parity of the PostgreSQL gift-card ledger (issue #24, migration 0019) with SQLite's: holds that the balance
 * allows and refuses, settlement with balance_after, release, a hub's adopted holds, refunds and voids — the
 * same calls on a migrated SQLite file and a real PostgreSQL, every answer equal.
 */

afterAll(cleanUp);

const OCC = 'brass-2027-03-12';

async function seed(exec: Exec): Promise<void> {
  const cart = `INSERT INTO carts (id, occurrence_id, event_id, location_id, kind, currency, status, created_at, expires_at) VALUES (?, ?, 'midnight-brass', 'stadthalle', 'ticket', 'EUR', 'ordered', 1, 2)`;
  for (const id of ['c1', 'c2', 'c3']) await exec(cart, [id, OCC]);
  const order = "INSERT INTO orders (id, cart_id, status, created_at, currency, total, lines, payment) VALUES (?, ?, 'confirmed', 5, 'EUR', 5000, '{}', '{}')";
  await exec(order, ['o1', 'c1']);
  await exec(order, ['o2', 'c2']);
  await exec(order, ['o3', 'c3']);
  const card = "INSERT INTO gift_cards (code, order_id, item_id, amount, currency, status) VALUES (?, 'o1', ?, ?, 'EUR', 'active')";
  await exec(card, ['AAAA', 'i1', 5000]);
  await exec(card, ['BBBB', 'i2', 2000]);
}

async function ledger(r: Either<GiftCardRepo>) {
  const log: unknown[] = [];
  log.push(await r.cards(['AAAA', 'BBBB', 'NOPE']));
  log.push(await r.hold('AAAA', 3000, 'pay1', 10), await r.hold('AAAA', 2500, 'pay2', 11), await r.hold('AAAA', 2000, 'pay2', 11));
  log.push(await r.hold('BBBB', 2000, 'pay3', 12), await r.hold('NOPE', 1, 'pay3', 12));
  log.push(await r.cards(['AAAA', 'BBBB']), await r.ofAttempt('pay2'));
  log.push(await r.settle('pay1', 'o2', 20), await r.release('pay3'), await r.cards(['BBBB']));
  log.push(await r.adopt('pay2', 'pay9'), await r.settle('pay9', 'o3', 21), await r.ofOrders(['o2', 'o3']));
  log.push(await r.settled('AAAA'), await r.usedIssued('o1'));
  await r.refundOrder('o2', 30);
  log.push(await r.ofOrders(['o2']), await r.cards(['AAAA']));
  log.push(await r.voidIssued('o2', 40), await r.settle('nobody', 'o2', 1), await r.release('nobody'));
  return log;
}

describe.skipIf(!postgresAvailable())(postgresSuite('gift-card ledger, parity with SQLite'), () => {
  it('holds, settlements, releases, adoptions, refunds and voids answer the same, and no hold takes a card below zero', async () => {
    const { db, pool } = await seededPair(demoCatalog(), seed);
    const sqliteLog = await ledger(createGiftCardRepo(db));
    const pgLog = await inTransaction(pool, async (tx) => ledger(createPgGiftCardRepo(tx)));
    expect(pgLog).toEqual(sqliteLog);
    // 3000 then 2000 of 5000 held; 2500 refused in between
    expect(sqliteLog[1]).toBe(true);
    expect(sqliteLog[2]).toBe(false);
    expect(sqliteLog[3]).toBe(true);
    expect(sqliteLog[5]).toBe(false); // no such card
    expect(sqliteLog[6]).toEqual([
      { code: 'AAAA', orderId: 'o1', currency: 'EUR', initial: 5000, status: 'active', balance: 0 },
      { code: 'BBBB', orderId: 'o1', currency: 'EUR', initial: 2000, status: 'active', balance: 0 },
    ]);
    // settled redemptions carry the balance right after each; the refund puts 3000 back
    expect(sqliteLog[13]).toEqual([expect.objectContaining({ kind: 'redeem', amount: -3000, balanceAfter: 2000 }), expect.objectContaining({ kind: 'redeem', amount: -2000, balanceAfter: 0 })]);
    expect(sqliteLog[15]).toBe('AAAA');
    expect(sqliteLog[16]).toEqual([expect.objectContaining({ kind: 'redeem', amount: -3000 }), expect.objectContaining({ kind: 'refund', amount: 3000, balanceAfter: 3000 })]);
    expect(sqliteLog[17]).toEqual([expect.objectContaining({ code: 'AAAA', balance: 3000 })]);
  });
});
