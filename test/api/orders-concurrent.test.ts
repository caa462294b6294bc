import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { checkout } from '../helpers/orders';

/**
 * Many buyers at once on one engine (what `npm run bench` does with 50 connections): every card checkout of a
 * held cart answers 201. On SQLite the store runs one transaction at a time; checkouts waiting together — the
 * simulated provider's own transactions among them — once made two transactions begin on the one connection
 * ("cannot start a transaction within a transaction"), and most checkouts answered 502.
 */
describe('POST /orders: many checkouts at the same moment', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('answers every one 201, each with its own order', async () => {
    const carts = await Promise.all(Array.from({ length: 30 }, () => createCart(engine, [concert(1)])));
    const answers = await Promise.all(carts.map((cart) => checkout(engine, cart.id, cart.total)));
    expect(answers.map((a) => a.status)).toEqual(carts.map(() => 201));
    const orders = new Set(answers.map((a) => (a.body as { data: { id: string } }).data.id));
    expect(orders.size).toBe(carts.length);
  });
});
