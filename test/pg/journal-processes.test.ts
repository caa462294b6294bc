import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ALLOC, allocationCatalog, seatId } from '../fixtures/allocation-catalog';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import type { Cart, Order } from './buyers';
import { call, type Answer } from './hub';
import { hubSuite } from './hub-suite';

/**
 * Contract §16, issue #25: three `serve` processes on one PostgreSQL database, each selling (cash) and cancelling
 * at once, keep one journal — seq 1, 2, 3 … without a gap, every entry chained to the one before whichever process
 * wrote it, one `order` entry per order and one `cancellation` entry per cancelled order — and every process
 * verifies it alike. (One writer at a time holds the head: Locks.journalHead, SELECT … FOR UPDATE.)
 */

const PROCESSES = 3;
const BUYERS = 24;
const ROUNDS = 6;
const KEY_NAMES = Array.from({ length: BUYERS }, (_, i) => `buyer-${i}`);

interface Verdict { ok: boolean; entries: number; head?: string; firstBadSeq?: number; reason?: string }

describe.skipIf(!postgresAvailable())(postgresSuite('the journal with three engine processes on one PostgreSQL database'), () => {
  const { started, keyOf, query } = hubSuite({ catalog: allocationCatalog({ floor: 10, seats: BUYERS * ROUNDS }), keyNames: KEY_NAMES, processes: PROCESSES });

  it('stays gapless, chained and verifiable while all three sell and cancel at once', { timeout: 120_000 }, async () => {
    const h = started();
    const answers: Answer[] = [];
    const sold: string[] = [];
    const cancelled: string[] = [];
    const buyer = async (b: number) => {
      const key = keyOf(`buyer-${b}`);
      for (let round = 0; round < ROUNDS; round++) {
        const on = (offset: number) => (b + round + offset) % PROCESSES;
        // a seat of its own: sales touch no common inventory row, so only the journal's head makes them wait
        const seat = { occurrenceId: ALLOC.occurrenceId, inventoryItemId: seatId(b * ROUNDS + round), priceOptionId: ALLOC.seats.priceOptionId, quantity: 1 };
        const cart = await call<{ data: Cart }>(h, on(0), key, 'POST', '/carts', { items: [seat] });
        answers.push(cart);
        if (cart.status !== 201) continue;
        const order = await call<{ data: Order }>(h, on(1), key, 'POST', '/orders',
          { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } }, { 'idempotency-key': randomUUID() });
        answers.push(order);
        if (order.status !== 201) continue;
        sold.push(order.body.data.id);
        if (round % 3 === 0) {
          const cancel = await call(h, on(2), key, 'POST', `/orders/${order.body.data.id}/cancel`, {});
          answers.push(cancel);
          if (cancel.status === 200) cancelled.push(order.body.data.id);
        }
      }
    };
    await Promise.all(Array.from({ length: BUYERS }, (_, b) => buyer(b)));

    expect(answers.filter((answer) => answer.status === 0 || answer.status >= 500).map((answer) => [answer.process, answer.status, answer.body])).toEqual([]);
    expect(sold).toHaveLength(BUYERS * ROUNDS);
    expect(cancelled).toHaveLength(BUYERS * Math.ceil(ROUNDS / 3));

    const [shape] = await query<{ n: string; first: string; last: string }>('SELECT COUNT(*) AS n, MIN(seq) AS first, MAX(seq) AS last FROM journal');
    const total = sold.length + cancelled.length;
    expect(shape && [Number(shape.n), Number(shape.first), Number(shape.last)]).toEqual([total, 1, total]);
    // each entry's prevHash is the hash of the entry before it
    expect(await query('SELECT j.seq FROM journal j JOIN journal p ON p.seq = j.seq - 1 WHERE j.prev_hash <> p.hash')).toEqual([]);
    expect(await query("SELECT o.id FROM orders o WHERE (SELECT COUNT(*) FROM journal j WHERE j.kind = 'order' AND j.ref = o.id) <> 1")).toEqual([]);
    expect(await query("SELECT o.id FROM orders o WHERE o.status = 'cancelled' AND (SELECT COUNT(*) FROM journal j WHERE j.kind = 'cancellation' AND j.ref = o.id) <> 1")).toEqual([]);
    const [head] = await query<{ seq: string; hash: string }>('SELECT seq, hash FROM journal_head');
    expect(Number(head?.seq)).toBe(total);

    const verdicts = await Promise.all(Array.from({ length: PROCESSES }, async (_, i) => (await call<{ data: Verdict }>(h, i, keyOf('buyer-0'), 'GET', '/journal/verify')).body.data));
    for (const verdict of verdicts) expect(verdict).toEqual({ ok: true, entries: total, head: head?.hash });
  });
});
