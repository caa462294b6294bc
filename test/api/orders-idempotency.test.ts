import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartOf, concert, createCart, seat, type Cart } from '../helpers/cart-assertions';
import { startTestEngine, TEST_OWNER, type ApiResponse, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import {
  card,
  checkout,
  eur,
  expectError,
  newKey,
  orderOf,
  ordersOfCart,
  replayed,
  paymentUnderWay,
  type Order,
} from '../helpers/orders';

/** Idempotency keys of POST /orders (spec §4.7, §7.4, §7.6; contract §5–7) and checkouts that race. */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The one element of a list; fails the test otherwise. */
function only<T>(list: readonly T[]): T {
  expect(list).toHaveLength(1);
  const [first] = list;
  if (first === undefined) throw new Error('empty list');
  return first;
}

const errorCode = (response: ApiResponse): string | undefined => (response.body as Partial<ErrorEnvelope> | undefined)?.error?.code;

describe('POST /orders: replays and key conflicts', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('same key + same cart → 201 with the identical body and Idempotent-Replayed: true; the first answer has no such header', async () => {
    // 2 × standing-adult 3900 = 7800
    const cart = await createCart(engine, [concert(2)]);
    const key = newKey();
    const first = await checkout(engine, cart.id, eur(7800), card(), { idempotencyKey: key });
    const order = orderOf(first);
    expect(replayed(first)).toBeNull();

    const again = await checkout(engine, cart.id, eur(7800), card(), { idempotencyKey: key });
    expect(again.status).toBe(201);
    expect(replayed(again)).toBe('true');
    expect(again.body).toEqual(first.body);

    // the key is compared case-insensitively as a UUID
    const upper = await checkout(engine, cart.id, eur(7800), card(), { idempotencyKey: key.toUpperCase() });
    expect(upper.status).toBe(201);
    expect(replayed(upper)).toBe('true');
    expect(orderOf(upper).id).toBe(order.id);

    expect(await ordersOfCart(engine, cart.id)).toHaveLength(1);
  });

  it('same key + same cart returns the existing order even when the payment in the body differs (spec §4.7 rule 1)', async () => {
    const cart = await createCart(engine, [concert(1)]);
    const key = newKey();
    const order = orderOf(await checkout(engine, cart.id, eur(3900), card(), { idempotencyKey: key }));
    const again = await checkout(engine, cart.id, eur(3900), card('tok_declined'), { idempotencyKey: key });
    expect(replayed(again)).toBe('true');
    expect(orderOf(again)).toEqual(order);
  });

  it('same key + another cart → 409 IDEMPOTENCY_KEY_REUSED, and the other cart is left held', async () => {
    const first = await createCart(engine, [concert(1)]);
    const other = await createCart(engine, [concert(1, 'standing-student')]);
    const key = newKey();
    orderOf(await checkout(engine, first.id, eur(3900), card(), { idempotencyKey: key }));
    const response = await checkout(engine, other.id, eur(2900), card(), { idempotencyKey: key });
    expectError(response, 409, 'IDEMPOTENCY_KEY_REUSED');
    expect(replayed(response)).toBeNull();
    expect(cartOf(await engine.request('GET', `/carts/${other.id}`)).total).toEqual(eur(2900));
    expect(await ordersOfCart(engine, other.id)).toEqual([]);
  });

  it('the same key under a different API key is independent (keys are scoped per API key)', async () => {
    const cartA = await createCart(engine, [concert(1)]);
    const cartB = await createCart(engine, [concert(1, 'standing-student')]);
    const key = newKey();
    // keys of the same till: ownership is another matter (ownership.test.ts)
    const second = await engine.createKey(['orders:write'], { owner: TEST_OWNER });
    const orderA = orderOf(await checkout(engine, cartA.id, eur(3900), card(), { idempotencyKey: key }));

    // not 409 IDEMPOTENCY_KEY_REUSED: under the other API key this key is new
    const responseB = await checkout(engine, cartB.id, eur(2900), card(), { idempotencyKey: key, apiKey: second });
    const orderB = orderOf(responseB);
    expect(replayed(responseB)).toBeNull();
    expect(orderB.id).not.toBe(orderA.id);
    expect(orderB.cartId).toBe(cartB.id);

    // under the second API key the key now belongs to cart B
    expectError(await checkout(engine, cartA.id, eur(3900), card(), { idempotencyKey: key, apiKey: second }), 409, 'IDEMPOTENCY_KEY_REUSED');
    // under a third API key it is no replay of the first API key's order: cart A is simply ordered already
    const third = await engine.createKey(['orders:write'], { owner: TEST_OWNER });
    const crossedResponse = await checkout(engine, cartA.id, eur(3900), card(), { idempotencyKey: key, apiKey: third });
    const crossed = expectError(crossedResponse, 409, 'CART_ALREADY_ORDERED');
    expect(crossed.details?.orderId).toBe(orderA.id);
    expect(replayed(crossedResponse)).toBeNull();
    // and each API key still replays its own order
    expect(orderOf(await checkout(engine, cartA.id, eur(3900), card(), { idempotencyKey: key })).id).toBe(orderA.id);
    expect(orderOf(await checkout(engine, cartB.id, eur(2900), card(), { idempotencyKey: key, apiKey: second })).id).toBe(orderB.id);
  });

  it('a key retired by 402 PAYMENT_DECLINED answers 409 IDEMPOTENCY_KEY_FAILED; a new key with tok_visa succeeds, the cart stayed held', async () => {
    // 1 × stalls-full 4500
    const cart = await createCart(engine, [seat('C3')]);
    const declinedKey = newKey();
    expectError(await checkout(engine, cart.id, eur(4500), card('tok_declined'), { idempotencyKey: declinedKey }), 402, 'PAYMENT_DECLINED');
    expect(cartOf(await engine.request('GET', `/carts/${cart.id}`)).total).toEqual(eur(4500));

    expectError(await checkout(engine, cart.id, eur(4500), card('tok_visa'), { idempotencyKey: declinedKey }), 409, 'IDEMPOTENCY_KEY_FAILED');
    expectError(await checkout(engine, cart.id, eur(4500), card('tok_declined'), { idempotencyKey: declinedKey }), 409, 'IDEMPOTENCY_KEY_FAILED');
    expect(await ordersOfCart(engine, cart.id)).toEqual([]);

    const response = await checkout(engine, cart.id, eur(4500), card('tok_visa'));
    const order = orderOf(response);
    expect(replayed(response)).toBeNull();
    expect(order.total).toEqual(eur(4500));
    // still retired after the cart became an order
    expectError(await checkout(engine, cart.id, eur(4500), card('tok_visa'), { idempotencyKey: declinedKey }), 409, 'IDEMPOTENCY_KEY_FAILED');
  });

  it('tok_provider_down → 502 API_ERROR PAYMENT_PROVIDER_UNAVAILABLE; the key is not retired: the same key with tok_visa succeeds', async () => {
    // 2 × standing-student 2900 = 5800
    const cart = await createCart(engine, [concert(2, 'standing-student')]);
    const key = newKey();
    expectError(await checkout(engine, cart.id, eur(5800), card('tok_provider_down'), { idempotencyKey: key }), 502, 'PAYMENT_PROVIDER_UNAVAILABLE');
    expect(cartOf(await engine.request('GET', `/carts/${cart.id}`)).total).toEqual(eur(5800));
    expect(await ordersOfCart(engine, cart.id)).toEqual([]);

    const response = await checkout(engine, cart.id, eur(5800), card('tok_visa'), { idempotencyKey: key });
    const order = orderOf(response);
    expect(replayed(response)).toBeNull();
    expect(order.total).toEqual(eur(5800));
    expect(order.tickets).toHaveLength(2);
    expect(await ordersOfCart(engine, cart.id)).toHaveLength(1);
  });

  it('a 403 RISK_CHECK_FAILED is kept for the key: the replay answers 403 again with Idempotent-Replayed: true', async () => {
    const cart = await createCart(engine, [seat('C4')]);
    const key = newKey();
    const first = await checkout(engine, cart.id, eur(4500), card('tok_risk'), { idempotencyKey: key });
    expectError(first, 403, 'RISK_CHECK_FAILED');
    expect(replayed(first)).toBeNull();

    const again = await checkout(engine, cart.id, eur(4500), card('tok_visa'), { idempotencyKey: key });
    expectError(again, 403, 'RISK_CHECK_FAILED');
    expect(replayed(again)).toBe('true');
    expect(await ordersOfCart(engine, cart.id)).toEqual([]);
  });
});

describe('POST /orders: while a payment is running', () => {
  let engine: TestEngine;
  let cart: Cart;
  let parkingId: string;
  const key = newKey();
  let running: Promise<ApiResponse>;
  beforeAll(async () => {
    // the simulated provider answers after 1.5 s, so the checkout below stays under way while the tests probe it
    engine = await startTestEngine({ paymentAnswerDelayMs: 1500 });
    // 1 × standing-adult 3900 + 1 × parking 800 = 4700
    const created = await createCart(engine, [concert(1)]);
    cart = cartOf(await engine.request('POST', `/carts/${created.id}/items`, { body: { items: [{ extraId: 'parking', quantity: 1 }] } }));
    parkingId = cart.items.find((item) => item.extraId === 'parking')?.id ?? 'missing';
    running = checkout(engine, cart.id, eur(4700), card(), { idempotencyKey: key });
    await paymentUnderWay(engine);
  });
  afterAll(async () => {
    await running;
    await engine.close();
  });

  it('the same key answers 409 IDEMPOTENCY_KEY_IN_PROGRESS', async () => {
    expectError(await checkout(engine, cart.id, eur(4700), card(), { idempotencyKey: key }), 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
  });

  it('another key, and another API key, answer 409 CART_CHECKOUT_IN_PROGRESS', async () => {
    expectError(await checkout(engine, cart.id, eur(4700)), 409, 'CART_CHECKOUT_IN_PROGRESS');
    const other = await engine.createKey(['orders:write'], { owner: TEST_OWNER });
    expectError(await checkout(engine, cart.id, eur(4700), card(), { idempotencyKey: key, apiKey: other }), 409, 'CART_CHECKOUT_IN_PROGRESS');
  });

  const changes: [string, string, unknown][] = [
    ['PATCH', '', { currency: 'USD' }],
    ['DELETE', '', undefined],
    ['POST', '/items', { items: [{ extraId: 'programme', quantity: 1 }] }],
    ['PATCH', '/items/{parking}', { quantity: 2 }],
    ['DELETE', '/items/{parking}', undefined],
    ['POST', '/vouchers', { code: 'WELCOME10' }],
  ];
  it.each(changes)('a change, %s /carts/{id}%s, answers 409 CART_CHECKOUT_IN_PROGRESS', async (method, suffix, body) => {
    const path = `/carts/${cart.id}${suffix.replace('{parking}', parkingId)}`;
    expectError(await engine.request(method, path, body === undefined ? {} : { body }), 409, 'CART_CHECKOUT_IN_PROGRESS');
  });

  it('a read still answers 200 with the unchanged cart', async () => {
    expect(cartOf(await engine.request('GET', `/carts/${cart.id}`))).toEqual(cart);
  });

  it('the running checkout then completes with 201 and the cart answers 409 CART_ALREADY_ORDERED', async () => {
    const order = orderOf(await running);
    expect(order.total).toEqual(eur(4700));
    expect(order.items).toEqual(cart.items);
    const error = expectError(await engine.request('GET', `/carts/${cart.id}`), 409, 'CART_ALREADY_ORDERED');
    expect(error.details?.orderId).toBe(order.id);
  });
});

describe('POST /orders: concurrent checkouts', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    // a provider answer that takes 100 ms makes the parallel requests overlap for certain
    engine = await startTestEngine({ paymentAnswerDelayMs: 100 });
  });
  afterAll(() => engine.close());

  it('20 parallel requests with ONE key on one cart: one order; every answer 201 with its id or 409 IDEMPOTENCY_KEY_IN_PROGRESS', async () => {
    // 2 × standing-adult 3900 = 7800
    const cart = await createCart(engine, [concert(2)]);
    const key = newKey();
    const responses = await Promise.all(Array.from({ length: 20 }, () => checkout(engine, cart.id, eur(7800), card(), { idempotencyKey: key })));

    const created = responses.filter((response) => response.status === 201);
    const inProgress = responses.filter((response) => response.status === 409);
    expect(created.length + inProgress.length, JSON.stringify(responses.map((r) => [r.status, errorCode(r)]))).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(inProgress.length).toBeGreaterThanOrEqual(1);
    for (const response of inProgress) expectError(response, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
    const ids = new Set(created.map((response) => orderOf(response).id));
    expect(ids.size).toBe(1);
    expect(created.filter((response) => replayed(response) === null)).toHaveLength(1);

    const orders = await ordersOfCart(engine, cart.id);
    expect(orders.map((order) => order.id)).toEqual([...ids]);
    expect(orders[0]?.tickets).toHaveLength(2);
    // afterwards the key replays that one order
    const replay = await checkout(engine, cart.id, eur(7800), card(), { idempotencyKey: key });
    expect(replayed(replay)).toBe('true');
    expect(orderOf(replay).id).toBe(orders[0]?.id);
  });

  it('10 parallel checkouts of one cart with 10 different keys: exactly one 201, the rest 409 CART_CHECKOUT_IN_PROGRESS or CART_ALREADY_ORDERED', async () => {
    const cart = await createCart(engine, [concert(1, 'balcony-adult')]);
    const responses = await Promise.all(Array.from({ length: 10 }, () => checkout(engine, cart.id, eur(4900))));

    const created = responses.filter((response) => response.status === 201);
    expect(created, JSON.stringify(responses.map((r) => [r.status, errorCode(r)]))).toHaveLength(1);
    const conflicts = responses.filter((response) => response.status !== 201);
    expect(conflicts).toHaveLength(9);
    for (const response of conflicts) {
      expect(response.status).toBe(409);
      expect(['CART_CHECKOUT_IN_PROGRESS', 'CART_ALREADY_ORDERED']).toContain(errorCode(response));
    }
    const order = orderOf(only(created));
    expect((await ordersOfCart(engine, cart.id)).map((o: Order) => o.id)).toEqual([order.id]);
  });

  it('10 parallel checkouts of 10 carts each carrying LUCKY50 (maxRedemptions 1): exactly one 201, the others 400 INVALID_VOUCHER fully_redeemed', async () => {
    const carts: Cart[] = [];
    for (let i = 0; i < 10; i += 1) {
      const cart = await createCart(engine, [concert(1, 'standing-adult', 'brass-2027-03-13')]);
      // 3900 − 50 % (1950) = 1950
      const discounted = cartOf(await engine.request('POST', `/carts/${cart.id}/vouchers`, { body: { code: 'LUCKY50' } }));
      expect(discounted.total).toEqual(eur(1950));
      carts.push(discounted);
    }
    const responses = await Promise.all(carts.map((cart) => checkout(engine, cart.id, eur(1950))));

    const created = responses.filter((response) => response.status === 201);
    expect(created, JSON.stringify(responses.map((r) => [r.status, errorCode(r)]))).toHaveLength(1);
    const winner = orderOf(only(created));
    expect(winner.total).toEqual(eur(1950));
    expect(winner.receiptLines.filter((line) => line.sign === -1).map((line) => line.amount)).toEqual([eur(1950)]);
    const refused = responses.filter((response) => response.status !== 201);
    expect(refused).toHaveLength(9);
    for (const response of refused) {
      const error = expectError(response, 400, 'INVALID_VOUCHER');
      expect(error.details?.reason).toBe('fully_redeemed');
      expect(error.details?.code).toBe('LUCKY50');
    }

    // a losing cart is still held; without the voucher it checks out at the full 3900
    const loser = carts.find((cart) => cart.id !== winner.cartId);
    expect(loser).toBeDefined();
    const loserId = loser?.id ?? 'missing';
    const plain = cartOf(await engine.request('DELETE', `/carts/${loserId}/vouchers/LUCKY50`));
    expect(plain.total).toEqual(eur(3900));
    expect(orderOf(await checkout(engine, loserId, eur(3900))).total).toEqual(eur(3900));
    // and LUCKY50 can no longer be applied anywhere
    const fresh = await createCart(engine, [concert(1, 'standing-adult', 'brass-2027-03-13')]);
    const error = expectError(await engine.request('POST', `/carts/${fresh.id}/vouchers`, { body: { code: 'LUCKY50' } }), 400, 'INVALID_VOUCHER');
    expect(error.details?.reason).toBe('fully_redeemed');
  });
});

describe('POST /orders: idempotency keys expire after 24 hours', () => {
  let engine: TestEngine;
  const start = Date.now();
  let clock = start;
  beforeAll(async () => {
    // holds long enough (200000 s ≈ 55.6 h) to outlive the key lifetime
    engine = await startTestEngine({ now: () => clock, holdSeconds: 200_000 });
  });
  afterAll(() => engine.close());

  let declinedCart: Cart;
  const declinedKey = newKey();
  let orderedCart: Cart;
  let order: Order;
  const orderedKey = newKey();

  it('at the start: a declined key is retired, a completed key replays and refuses another cart', async () => {
    declinedCart = await createCart(engine, [seat('D1')]);
    expectError(await checkout(engine, declinedCart.id, eur(4500), card('tok_declined'), { idempotencyKey: declinedKey }), 402, 'PAYMENT_DECLINED');
    expectError(await checkout(engine, declinedCart.id, eur(4500), card('tok_visa'), { idempotencyKey: declinedKey }), 409, 'IDEMPOTENCY_KEY_FAILED');

    orderedCart = await createCart(engine, [seat('D2')]);
    order = orderOf(await checkout(engine, orderedCart.id, eur(4500), card(), { idempotencyKey: orderedKey }));
  });

  it('24 h − 1 min later the keys still hold', async () => {
    clock = start + DAY_MS - 60_000;
    expectError(await checkout(engine, declinedCart.id, eur(4500), card('tok_visa'), { idempotencyKey: declinedKey }), 409, 'IDEMPOTENCY_KEY_FAILED');
    const replay = await checkout(engine, orderedCart.id, eur(4500), card(), { idempotencyKey: orderedKey });
    expect(replayed(replay)).toBe('true');
    expect(orderOf(replay).id).toBe(order.id);
    const other = await createCart(engine, [seat('D3')]);
    expectError(await checkout(engine, other.id, eur(4500), card(), { idempotencyKey: orderedKey }), 409, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('24 h + 1 min later the retired key is new again: the same key on the same (still held) cart checks out', async () => {
    clock = start + DAY_MS + 60_000;
    cartOf(await engine.request('GET', `/carts/${declinedCart.id}`));
    const response = await checkout(engine, declinedCart.id, eur(4500), card('tok_visa'), { idempotencyKey: declinedKey });
    const fresh = orderOf(response);
    expect(replayed(response)).toBeNull();
    expect(fresh.cartId).toBe(declinedCart.id);
  });

  it('24 h + 1 min later the completed key no longer replays: the ordered cart answers 409 CART_ALREADY_ORDERED, another cart checks out', async () => {
    const stale = await checkout(engine, orderedCart.id, eur(4500), card(), { idempotencyKey: orderedKey });
    const error = expectError(stale, 409, 'CART_ALREADY_ORDERED');
    expect(error.details?.orderId).toBe(order.id);
    expect(replayed(stale)).toBeNull();

    const other = await createCart(engine, [seat('D4')]);
    const response = await checkout(engine, other.id, eur(4500), card(), { idempotencyKey: orderedKey });
    const second = orderOf(response);
    expect(second.id).not.toBe(order.id);
    expect(second.cartId).toBe(other.id);
  });
});
