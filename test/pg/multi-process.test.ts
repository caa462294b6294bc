import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROVIDER_DEADLINE_MS } from '../../engine/checkout/payments/provider';
import { DEFAULT_SWEEP_INTERVAL_MS } from '../../engine/start';
import { ALLOC, allocationCatalog, seatId } from '../fixtures/allocation-catalog';
import { kill } from '../helpers/serve-process';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { buyer, floorCart, floorWanted, seatsWanted, ticketItems, type Cart, type Order, type Purchase } from './buyers';
import { call, type Answer } from './hub';
import { hubSuite } from './hub-suite';

/**
 * Contract §16, issue #23 "Done when": three `serve` processes on one PostgreSQL database, racing buyers sent to
 * all of them — sold ≤ capacity, a seat once, one order per idempotency key, no 5xx — and a `kill -9` of one of
 * them in the middle of the buying loses no confirmed order; the payment it left open is settled by the others
 * within what the shipped defaults promise (the provider deadline, then the next sweep: a minute). Every
 * process runs at the shipped defaults (hold length, sweep interval, payment deadline, rate limit).
 */

const FLOOR = 10;
const SEATS = 16;
const GA_BUYERS = 10;
const SEAT_BUYERS = 10;
const KEY_NAMES = ['idempotency', 'hang', 'hold', ...Array.from({ length: GA_BUYERS + SEAT_BUYERS }, (_, i) => `buyer-${i}`)];

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** what the killed process left: a checkout hung at the provider, and a held cart */
const left = { attemptCartId: '', attemptCreatedAt: 0, heldCart: undefined as Cart | undefined };

describe.skipIf(!postgresAvailable())(postgresSuite('three engine processes on one PostgreSQL database'), () => {
  const { started, keyOf, query } = hubSuite({ catalog: allocationCatalog({ floor: FLOOR, seats: SEATS }), keyNames: KEY_NAMES, processes: 3 });

  it('the same Idempotency-Key sent to all three at the same moment makes one order; the others replay it or answer 409 IN_PROGRESS', async () => {
    const h = started();
    const key = keyOf('idempotency');
    for (let round = 0; round < 5; round += 1) {
      const cart = (await call<{ data: Cart }>(h, round % 3, key, 'POST', '/carts', floorCart(1))).body.data;
      const idempotencyKey = randomUUID();
      const body = { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa' } };
      const answers = await Promise.all([0, 1, 2].map((i) => call<{ data?: Order; error?: { code: string } }>(h, i, key, 'POST', '/orders', body, { 'idempotency-key': idempotencyKey })));
      const fresh = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
      const others = answers.filter((a) => !fresh.includes(a));
      expect(fresh, JSON.stringify(answers.map((a) => [a.status, a.body]))).toHaveLength(1);
      for (const other of others) {
        if (other.status === 201) {
          expect(other.headers.get('idempotent-replayed')).toBe('true');
          expect(other.body.data?.id).toBe(fresh[0]?.body.data?.id);
        } else {
          expect([other.status, other.body.error?.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_PROGRESS']);
        }
      }
      expect(await query('SELECT id FROM orders WHERE cart_id = $1', [cart.id])).toEqual([{ id: fresh[0]?.body.data?.id }]);
    }
  });

  it('racing buyers on all three, one of them killed -9 in the middle: sold ≤ capacity, a seat once, no 5xx, every confirmed order kept', { timeout: 60_000 }, async () => {
    const h = started();
    const victim = h.processes[2];
    if (!victim) throw new Error('no third process');
    // work the victim leaves open: a checkout the provider never answers (tok_timeout), and a held cart
    const hung = (await call<{ data: Cart }>(h, 2, keyOf('hang'), 'POST', '/carts', floorCart(1))).body.data;
    const hangingCheckout = call(h, 2, keyOf('hang'), 'POST', '/orders', { cartId: hung.id, expectedTotal: hung.total, payment: { method: 'card', token: 'tok_timeout' } }, { 'idempotency-key': randomUUID() });
    left.heldCart = (await call<{ data: Cart }>(h, 2, keyOf('hold'), 'POST', '/carts', floorCart(1))).body.data;
    left.attemptCartId = hung.id;
    for (const deadline = Date.now() + 10_000; ; await sleep(20)) {
      const [row] = await query<{ created_at: number }>("SELECT created_at FROM payment_attempts WHERE cart_id = $1 AND state = 'pending'", [hung.id]);
      if (row) {
        left.attemptCreatedAt = Number(row.created_at);
        break;
      }
      if (Date.now() > deadline) throw new Error('the hanging checkout never began');
    }

    // the stock invariant, watched in the database while the buyers race
    const violations: unknown[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        violations.push(...await query('SELECT id, capacity, held, sold, allocated FROM inventory_items WHERE held + sold + allocated > capacity'));
        await sleep(25);
      }
    })();
    const buyers: Promise<Purchase>[] = [
      ...Array.from({ length: GA_BUYERS }, (_, i) => buyer(h, keyOf(`buyer-${i}`), 3, floorWanted)),
      ...Array.from({ length: SEAT_BUYERS }, (_, i) => buyer(h, keyOf(`buyer-${GA_BUYERS + i}`), 3, seatsWanted(SEATS))),
    ];
    await sleep(400);
    await kill(victim, 'SIGKILL');
    const purchases = await Promise.all(buyers);
    watching = false;
    await watcher;
    expect((await hangingCheckout).status).toBe(0); // its process died before the provider answered

    const answers: Answer[] = purchases.flatMap((p) => p.answers);
    const orders = purchases.flatMap((p) => p.orders);
    // (d) no 5xx anywhere; no answer at all only from the killed process
    expect(answers.filter((a) => a.status >= 500).map((a) => [a.process, a.status, a.body])).toEqual([]);
    expect(answers.filter((a) => a.status === 0 && a.process !== 2)).toEqual([]);
    expect(answers.filter((a) => a.status === 201).length).toBeGreaterThan(4); // the race did sell
    expect(violations).toEqual([]);

    // (a) general admission: sold ≤ capacity, in the answers, through the API and in the database
    const soldFloor = orders.flatMap(ticketItems).filter((item) => item === ALLOC.floor.inventoryItemId).length;
    expect(soldFloor).toBeLessThanOrEqual(FLOOR);
    const [floorRow] = await query<{ capacity: number; held: number; sold: number; allocated: number; tickets: number }>(`SELECT capacity, held, sold, allocated,
        (SELECT count(*)::integer FROM tickets t JOIN cart_items ci ON ci.id = t.item_id JOIN orders o ON o.id = t.order_id
          WHERE o.status = 'confirmed' AND ci.inventory_item_id = 'floor') AS tickets
      FROM inventory_items WHERE occurrence_id = $1 AND id = 'floor'`, [ALLOC.occurrenceId]);
    expect(floorRow?.sold).toBe(floorRow?.tickets);
    expect(floorRow?.sold).toBeGreaterThanOrEqual(soldFloor);
    expect((floorRow?.held ?? 0) + (floorRow?.sold ?? 0) + (floorRow?.allocated ?? 0)).toBeLessThanOrEqual(FLOOR);
    const inventory = await call<{ data: { areas: { inventoryItems: { id: string; capacity: number; available: number; held?: number }[] }[] } }>(h, 0, keyOf('buyer-0'), 'GET', `/occurrences/${ALLOC.occurrenceId}/inventory`);
    const floorView = inventory.body.data.areas.flatMap((area) => area.inventoryItems).find((item) => item.id === 'floor');
    expect(floorView).toMatchObject({ capacity: FLOOR, available: FLOOR - (floorRow?.held ?? 0) - (floorRow?.sold ?? 0) - (floorRow?.allocated ?? 0) });

    // (b) assigned seats: each sold at most once, no seat on two tickets
    const seatTickets = orders.flatMap(ticketItems).filter((item) => item !== ALLOC.floor.inventoryItemId);
    expect(new Set(seatTickets).size).toBe(seatTickets.length);
    expect(await query(`SELECT ci.inventory_item_id, count(*)::integer AS n FROM tickets t JOIN cart_items ci ON ci.id = t.item_id
      JOIN orders o ON o.id = t.order_id WHERE o.status = 'confirmed' AND ci.inventory_item_id <> 'floor' GROUP BY 1 HAVING count(*) > 1`)).toEqual([]);
    expect(await query('SELECT id, held, sold FROM inventory_items WHERE occurrence_id = $1 AND id <> $2 AND held + sold > 1', [ALLOC.occurrenceId, 'floor'])).toEqual([]);
    expect(seatTickets.every((seat) => /^S\d+$/.test(seat) && Number(seat.slice(1)) <= SEATS)).toBe(true);
    expect(seatId(0)).toBe('S1');

    // every order a client was told was made is there, tickets included, through both surviving processes
    for (const order of orders) {
      for (const index of [0, 1]) {
        const read = await call<{ data: Order }>(h, index, keyOf('buyer-0'), 'GET', `/orders/${order.id}`);
        expect(read.status, `order ${order.id} through process ${index}`).toBe(200);
        expect(read.body.data.status).toBe('confirmed');
        expect(read.body.data.tickets.map((t) => [t.id, t.code])).toEqual(order.tickets.map((t) => [t.id, t.code]));
      }
    }
  });

  it('a held cart of the killed process is bought through another', async () => {
    const h = started();
    const cart = left.heldCart;
    if (!cart) throw new Error('no held cart');
    const read = await call<{ data: Cart }>(h, 0, keyOf('hold'), 'GET', `/carts/${cart.id}`);
    expect([read.status, read.body.data.id]).toEqual([200, cart.id]);
    const placed = await call<{ data: Order }>(h, 1, keyOf('hold'), 'POST', '/orders', { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa' } }, { 'idempotency-key': randomUUID() });
    expect(placed.status).toBe(201);
    expect(placed.body.data.tickets).toHaveLength(1);
  });

  it('the payment the killed process left open is settled by the others within the deadline and one sweep (a minute)', { timeout: 90_000 }, async () => {
    const h = started();
    const promised = left.attemptCreatedAt + DEFAULT_PROVIDER_DEADLINE_MS + DEFAULT_SWEEP_INTERVAL_MS;
    expect(promised - left.attemptCreatedAt).toBeLessThanOrEqual(60_000);
    let state = 'pending';
    // a few seconds of slack for the sweep's own work (asking the provider, then one transaction)
    while (state === 'pending' && Date.now() < promised + 5_000) {
      await sleep(250);
      const [row] = await query<{ state: string }>('SELECT state FROM payment_attempts WHERE cart_id = $1', [left.attemptCartId]);
      state = row?.state ?? 'missing';
    }
    expect(state).toBe('failed'); // the provider had no charge for it (and now never takes one)
    // the cart is no longer locked by a checkout: it sells through a surviving process
    const cart = (await call<{ data: Cart }>(h, 0, keyOf('hang'), 'GET', `/carts/${left.attemptCartId}`)).body.data;
    const placed = await call<{ data: Order }>(h, 1, keyOf('hang'), 'POST', '/orders', { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa' } }, { 'idempotency-key': randomUUID() });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    // the survivors' sweeps (one at a time) and everything else they did logged no error (pino level 50)
    for (const proc of h.processes.slice(0, 2)) expect(proc.output().split('\n').filter((line) => line.includes('"level":50'))).toEqual([]);
  });
});
