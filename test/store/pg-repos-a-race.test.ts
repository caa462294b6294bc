import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../engine/domain/errors';
import type { CartLine } from '../../engine/domain/pricing';
import { createPgCartRepo } from '../../engine/store/postgres/cart-repo';
import { createPgCheckoutRepo } from '../../engine/store/postgres/checkout-repo';
import { createPgOrderRepo } from '../../engine/store/postgres/order-repo';
import { createPgOutboxRepo } from '../../engine/store/postgres/outbox-repo';
import { createPgPspRepo } from '../../engine/store/postgres/psp-repo';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { barrier, cartSql, inTransaction, openPair, orderSql, type Pair } from './pg-repos-a-fixture';

/**
 * Races on PostgreSQL: several pool clients run the same repository method in parallel transactions (READ
 * COMMITTED), released together by a barrier after BEGIN. Each invariant the SQLite engine gets from its single
 * writer must hold here by the statements alone.
 */

let pair: Pair;
beforeEach(async () => {
  if (postgresAvailable()) pair = await openPair();
});
afterEach(async () => {
  if (postgresAvailable()) await pair.close();
});

/** runs `work(i)` for i < n in n parallel transactions; what each answered or threw */
async function race<T>(n: number, work: (i: number, client: Pair['client']) => Promise<T>): Promise<{ ok: T[]; failed: string[] }> {
  const go = barrier(n);
  const settled = await Promise.allSettled(Array.from({ length: n }, (_, i) => inTransaction(pair.pool, (client) => work(i, client), go)));
  const ok: T[] = [];
  const failed: string[] = [];
  for (const result of settled) {
    if (result.status === 'fulfilled') ok.push(result.value);
    else failed.push(result.reason instanceof Error ? `${result.reason.name}: ${result.reason.message}` : String(result.reason));
  }
  return { ok, failed };
}

const read = async (sql: string): Promise<unknown[]> => (await pair.client.query(sql)).rows;
const line = (id: string, item: string, quantity: number): CartLine => ({
  id, type: 'admission', name: item, quantity, baseUnitPrice: 100, occurrenceId: 'o1', inventoryItemId: item, priceOptionId: 'p1',
});
const cart = (id: string) => ({ id, occurrenceId: 'o1', eventId: 'e1', locationId: 'l1', kind: 'ticket' as const, currency: 'EUR', createdAt: 1000, expiresAt: 2000 });

describe.skipIf(!postgresAvailable())(postgresSuite('PostgreSQL repositories (a): races between processes'), () => {
  it('stock is never oversold by concurrent holds, and released once by racing sweepers and releases', async () => {
    // 8 carts of 2 floor places (capacity 10) plus one seat each, the seat ids in both orders across carts
    const holds = await race(8, async (i, client) => {
      const seat = i % 2 === 0 ? '10' : 'B';
      const items: [string, number][] = i % 3 === 0 ? [[seat, 1], ['floor', 2]] : [['floor', 2], [seat, 1]];
      await createPgCartRepo(client).insert(cart(`c${i}`), items.map(([item, n], k) => line(`c${i}-${k}`, item, n)), new Map(items));
      return i;
    });
    expect(holds.failed.every((reason) => reason === 'EngineError: INVENTORY_EXHAUSTED')).toBe(true);
    expect(holds.ok.length).toBe(2); // one cart per seat; no deadlock between carts locking the same items in another order
    expect(await read("SELECT id, capacity, held FROM inventory_items WHERE id IN ('floor', '10', 'B') ORDER BY id")).toEqual([
      { id: '10', capacity: 1, held: holds.ok.filter((i) => i % 2 === 0).length },
      { id: 'B', capacity: 1, held: holds.ok.filter((i) => i % 2 === 1).length },
      { id: 'floor', capacity: 10, held: 2 * holds.ok.length },
    ]);

    // the floor alone: 8 carts of 2 for the 10 - 2·ok places left
    const left = 10 - 2 * holds.ok.length;
    const floor = await race(8, async (i, client) => {
      await createPgCartRepo(client).insert(cart(`f${i}`), [line(`f${i}-0`, 'floor', 2)], new Map([['floor', 2]]));
      return `f${i}`;
    });
    expect(floor.ok.length).toBe(Math.floor(left / 2));
    expect(floor.failed.every((reason) => reason === 'EngineError: INVENTORY_EXHAUSTED')).toBe(true);
    expect(await read("SELECT held FROM inventory_items WHERE id = 'floor'")).toEqual([{ held: 10 }]);

    // three sweepers and two releases of one cart at once: every place back, once (held ≥ 0 is a CHECK)
    const target = floor.ok[0] ?? 'none';
    const released = await race(5, async (i, client) => {
      const carts = createPgCartRepo(client);
      if (i < 3) await carts.releaseExpired(3000);
      else await carts.release(target, 'deleted');
      return i;
    });
    expect(released.failed).toEqual([]);
    expect(await read("SELECT id, held FROM inventory_items WHERE id IN ('floor', '10', 'B') ORDER BY id")).toEqual([
      { id: '10', held: 0 }, { id: 'B', held: 0 }, { id: 'floor', held: 0 }]);
    expect(await read("SELECT COUNT(*) AS n FROM carts WHERE status = 'held'")).toEqual([{ n: 0 }]);
  });

  it('the sweeper neither waits for a cart being checked out nor takes the stock of one whose payment began', async () => {
    await pair.client.query(cartSql('c1', { expiresAt: 1500, lines: [['floor', 2]] }));
    const checkout = await pair.pool.connect();
    try {
      // a checkout holds the (expired-by-now) cart's lock and has written its pending attempt, not yet committed
      await checkout.query('BEGIN');
      await checkout.query("SELECT id FROM carts WHERE id = 'c1' FOR UPDATE");
      await createPgCheckoutRepo(checkout).insertAttempt({ id: 'pay1', cartId: 'c1', apiKeyId: 'k1', idempotencyKey: 'i1', method: 'card',
        amount: 100, currency: 'EUR', request: '{}', priced: null, createdAt: 1400 });
      // a sweeper elsewhere passes it by at once (SKIP LOCKED: no wait on the checkout)
      await inTransaction(pair.pool, (client) => createPgCartRepo(client).releaseExpired(3000));
      expect(await read("SELECT status FROM carts WHERE id = 'c1'")).toEqual([{ status: 'held' }]);
      await checkout.query('COMMIT');
    } finally {
      checkout.release();
    }
    // and once the attempt is committed, the next sweep sees the payment under way and leaves the stock held
    await inTransaction(pair.pool, (client) => createPgCartRepo(client).releaseExpired(3000));
    expect(await read("SELECT c.status, i.held FROM carts c, inventory_items i WHERE c.id = 'c1' AND i.id = 'floor'")).toEqual([{ status: 'held', held: 2 }]);
  });

  it('a voucher is never redeemed past its limit, and given back once', async () => {
    await pair.client.query(cartSql('c1', { lines: [] }));
    const reserve = await race(6, async (i, client) => {
      const checkout = createPgCheckoutRepo(client);
      await checkout.insertAttempt({ id: `pay${i}`, cartId: 'c1', apiKeyId: 'k1', idempotencyKey: `i${i}`, method: 'card', amount: 100, currency: 'EUR',
        request: '{}', priced: null, createdAt: 1000 });
      const usedUp = await checkout.reserveVouchers(`pay${i}`, i % 2 === 0 ? ['FREE', 'LIMITED'] : ['LIMITED', 'FREE']);
      if (usedUp !== undefined) throw new Error(`used up: ${usedUp}`); // the caller rolls back
      return `pay${i}`;
    });
    expect(reserve.ok).toHaveLength(2);
    expect(reserve.failed).toEqual(Array.from({ length: 4 }, () => 'Error: used up: LIMITED'));
    expect(await read('SELECT code, redeemed FROM vouchers ORDER BY code')).toEqual([{ code: 'FREE', redeemed: 2 }, { code: 'LIMITED', redeemed: 2 }]);

    const winner = reserve.ok[0] ?? 'none';
    const give = await race(3, (_, client) => createPgCheckoutRepo(client).releaseVouchers(winner));
    expect(give.failed).toEqual([]);
    expect(await read('SELECT code, redeemed FROM vouchers ORDER BY code')).toEqual([{ code: 'FREE', redeemed: 1 }, { code: 'LIMITED', redeemed: 1 }]);
  });

  it('an idempotency key is begun by one process only', async () => {
    await pair.client.query(cartSql('c1', { lines: [] }));
    const begun = await race(5, async (i, client) => {
      await createPgCheckoutRepo(client).beginKey('k1', 'same-key', 'c1', 5000 + i);
      return i;
    });
    expect(begun.ok).toHaveLength(1);
    expect(begun.failed).toEqual(Array.from({ length: 4 }, () => 'EngineError: IDEMPOTENCY_KEY_IN_PROGRESS'));
    expect(await read("SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = 'same-key'")).toEqual([{ n: 1 }]);
  });

  it('a pending payment attempt is settled once', async () => {
    await pair.client.query(cartSql('c1', { lines: [] }));
    await createPgCheckoutRepo(pair.client).insertAttempt({ id: 'pay1', cartId: 'c1', apiKeyId: 'k1', idempotencyKey: 'i1', method: 'card',
      amount: 100, currency: 'EUR', request: '{}', priced: null, createdAt: 1000 });
    const settled = await race(4, async (i, client) => {
      const checkout = createPgCheckoutRepo(client);
      return i % 2 === 0 ? checkout.move('pay1', { type: 'captured' }, `ord${i}`) : checkout.move('pay1', { type: 'failed', outcome: 'declined' });
    });
    expect(settled.ok).toHaveLength(1);
    expect(settled.failed).toHaveLength(3);
    expect(settled.failed.every((reason) => reason.startsWith('IllegalTransition: a payment attempt in state'))).toBe(true);
    const [row] = await read("SELECT state, order_id FROM payment_attempts WHERE id = 'pay1'");
    expect(row).toEqual(settled.ok[0] === 'captured' ? { state: 'captured', order_id: expect.stringMatching(/^ord/) } : { state: 'failed', order_id: null });
  });

  it('an order is cancelled once: its seats go back on sale once', async () => {
    await pair.client.query(cartSql('c1', { lines: [['floor', 3]] }));
    const orders = createPgOrderRepo(pair.client);
    await orders.insert({ id: 'ord1', cartId: 'c1', createdAt: 1000, currency: 'EUR', total: 300, lines: '{}', apiKeyId: 'k1' }, [], []);
    const order = await orders.get('ord1');
    if (!order) throw new Error('no order');
    const cancelled = await race(3, (_, client) => createPgOrderRepo(client).cancel(order, 2000));
    expect(cancelled.failed).toEqual([]);
    expect(await read("SELECT held, sold FROM inventory_items WHERE id = 'floor'")).toEqual([{ held: 0, sold: 0 }]);
  });

  it('an outbox entry is claimed by one process; the claim lapses for a process that died', async () => {
    const setup = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].map((id) => cartSql(id, { lines: [] }) + orderSql(`o-${id}`, id)).join('\n');
    await pair.client.query(setup);
    const outbox = createPgOutboxRepo(pair.client, { claimMs: 60_000 });
    for (const id of ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']) await outbox.add('order', `o-${id}`, 1000);
    const claimed = await race(4, async (_, client) => (await createPgOutboxRepo(client, { claimMs: 60_000 }).ready(5000, 10)).map((row) => row.id));
    expect(claimed.failed).toEqual([]);
    const ids = claimed.ok.flat();
    expect(new Set(ids).size).toBe(ids.length); // never one entry to two senders
    expect(await outbox.ready(5000, 10)).toEqual([]); // claimed: nobody else finds them due
    expect(ids.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]); // and every due entry to one of them
    expect((await outbox.ready(5000 + 60_001, 10)).map((row) => row.id).sort()).toHaveLength(6); // the claims lapsed
  });

  it('the simulated provider never both charges and closes one reference', async () => {
    for (let round = 0; round < 10; round += 1) {
      const reference = `pay${round}`;
      const outcome = await race(2, async (i, client) => {
        const psp = createPgPspRepo(client);
        await psp.lockReference(reference);
        if (i === 0) {
          if (await psp.isClosed(reference)) return 'unavailable';
          await psp.recordCharge({ reference, amount: 100, currency: 'EUR', token: 'tok_visa' }, 1000);
          return 'approved';
        }
        if (await psp.charge(reference)) return 'charged';
        await psp.close(reference, 1000);
        return 'none';
      });
      expect(outcome.failed).toEqual([]);
      const charged = await createPgPspRepo(pair.client).charge(reference);
      const closed = await createPgPspRepo(pair.client).isClosed(reference);
      expect(charged !== undefined && closed).toBe(false);
      expect(charged !== undefined || closed).toBe(true);
    }
  });

  it('a hold the stock cannot give is refused with the item, the places left and the places asked', async () => {
    await pair.client.query("UPDATE inventory_items SET held = 8 WHERE id = 'floor'");
    const refused = await inTransaction(pair.pool, (client) => createPgCartRepo(client)
      .insert(cart('c1'), [line('l0', '9', 1), line('l1', 'floor', 3)], new Map([['9', 1], ['floor', 3]]))).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(EngineError);
    expect(refused).toMatchObject({ code: 'INVENTORY_EXHAUSTED', param: 'items[1].quantity',
      details: { inventoryItemId: 'floor', availableQuantity: 2, requestedQuantity: 3 } });
    // the caller's transaction rolled back: the seat taken before the refusal is free again
    expect(await read("SELECT id, held FROM inventory_items WHERE id IN ('9', 'floor') ORDER BY id")).toEqual([{ id: '9', held: 0 }, { id: 'floor', held: 8 }]);
  });
});
