import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available, cartOf, concert, createCart, giftCard, seat, type Cart } from '../helpers/cart-assertions';
import { startTestEngine, TEST_OWNER, type TestEngine } from '../helpers/engine';
import {
  authenticationResultOf,
  card,
  cash,
  challengeOf,
  checkout,
  decideChallenge,
  eur,
  expectError,
  ISO_TIMESTAMP,
  listOrders,
  newKey,
  orderOf,
  ordersOfCart,
  placeOrder,
  type Order,
} from '../helpers/orders';

/** 3-D Secure and risk outcomes of POST /orders, cancelling orders, and GET /orders (spec §3, §7.3–7.4; contract §4, §7). */

describe('POST /orders: 3-D Secure (tok_3ds)', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  let cart: Cart;
  const firstKey = newKey();
  let reference = '';
  let challengeUrl = '';

  it('answers 402 PAYMENT_ERROR PAYMENT_AUTHENTICATION_REQUIRED with details.action a JSON string of a threeDS2Challenge', async () => {
    // 2 × standing-adult 3900 = 7800
    cart = await createCart(engine, [concert(2)]);
    const response = await checkout(engine, cart.id, eur(7800), card('tok_3ds'), { idempotencyKey: firstKey });
    const action = challengeOf(response);
    expect(Object.keys(action).sort()).toEqual(['challengeUrl', 'reference', 'type']);
    expect(action.type).toBe('threeDS2Challenge');
    expect(typeof action.reference).toBe('string');
    expect(action.reference.length).toBeGreaterThan(0);
    expect(action.challengeUrl).toBe(`${engine.url}/psp/challenges/${action.reference}`);
    reference = action.reference;
    challengeUrl = action.challengeUrl;
  });

  it('charges nothing: the cart is still held with its stock, and no order exists', async () => {
    expect(cartOf(await engine.request('GET', `/carts/${cart.id}`))).toEqual(cart);
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(38);
    expect(await ordersOfCart(engine, cart.id)).toEqual([]);
  });

  it('the challenge page is text/html with Approve and Reject buttons and a content-security-policy', async () => {
    const response = await fetch(challengeUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await response.text();
    expect(html).toMatch(/<button[^>]*>Approve<\/button>/);
    expect(html).toMatch(/<button[^>]*>Reject<\/button>/);
    expect(html).toContain('78.00 EUR');
  });

  it('approving answers { authenticationResult }; checking out again with a NEW key and that result → 201, payment.authenticated true', async () => {
    const authenticationResult = await authenticationResultOf(engine, reference, 'approve');
    const response = await checkout(engine, cart.id, eur(7800), card('tok_3ds', authenticationResult));
    const order = orderOf(response);
    expect(order.total).toEqual(eur(7800));
    expect(order.payment).toMatchObject({ method: 'card', status: 'captured', amount: eur(7800), authenticated: true });
    expect(order.tickets).toHaveLength(2);
  });

  it('the key that got the 402 is retired: reusing it answers 409 IDEMPOTENCY_KEY_FAILED', async () => {
    expectError(await checkout(engine, cart.id, eur(7800), card('tok_visa'), { idempotencyKey: firstKey }), 409, 'IDEMPOTENCY_KEY_FAILED');
  });

  it('a rejected challenge: checking out with its result answers 402 PAYMENT_DECLINED, the cart stays held', async () => {
    // 1 × standing-student 2900
    const rejected = await createCart(engine, [concert(1, 'standing-student')]);
    const action = challengeOf(await checkout(engine, rejected.id, eur(2900), card('tok_3ds')));
    const authenticationResult = await authenticationResultOf(engine, action.reference, 'reject');
    expectError(await checkout(engine, rejected.id, eur(2900), card('tok_3ds', authenticationResult)), 402, 'PAYMENT_DECLINED');
    expect(cartOf(await engine.request('GET', `/carts/${rejected.id}`)).total).toEqual(eur(2900));
    expect(await ordersOfCart(engine, rejected.id)).toEqual([]);
  });

  it('an authenticationResult cannot be used twice: a second cart of the same amount answers 402 PAYMENT_DECLINED', async () => {
    // two carts of 1 × stalls-full 4500 each
    const first = await createCart(engine, [seat('E1')]);
    const second = await createCart(engine, [seat('E2')]);
    const action = challengeOf(await checkout(engine, first.id, eur(4500), card('tok_3ds')));
    const authenticationResult = await authenticationResultOf(engine, action.reference, 'approve');
    expect(orderOf(await checkout(engine, first.id, eur(4500), card('tok_3ds', authenticationResult))).payment.authenticated).toBe(true);
    expectError(await checkout(engine, second.id, eur(4500), card('tok_3ds', authenticationResult)), 402, 'PAYMENT_DECLINED');
    expect(await ordersOfCart(engine, second.id)).toEqual([]);
  });

  it('an unknown challenge reference answers 404 RESOURCE_NOT_FOUND, for the page and for a decision', async () => {
    const page = await fetch(`${engine.url}/psp/challenges/chl_nosuchreference`);
    expect(page.status).toBe(404);
    expect(((await page.json()) as { error: { code: string } }).error.code).toBe('RESOURCE_NOT_FOUND');
    expectError(await decideChallenge(engine, 'chl_nosuchreference', 'approve'), 404, 'RESOURCE_NOT_FOUND');
  });

  it('tok_risk answers 403 PERMISSION_ERROR RISK_CHECK_FAILED and creates no order', async () => {
    const risky = await createCart(engine, [seat('E3')]);
    expectError(await checkout(engine, risky.id, eur(4500), card('tok_risk')), 403, 'RISK_CHECK_FAILED');
    expect(await ordersOfCart(engine, risky.id)).toEqual([]);
  });

  it('tok_declined answers 402 PAYMENT_DECLINED; a second card (tok_visa) with a new key → 201', async () => {
    const declined = await createCart(engine, [seat('E4')]);
    expectError(await checkout(engine, declined.id, eur(4500), card('tok_declined')), 402, 'PAYMENT_DECLINED');
    const order = orderOf(await checkout(engine, declined.id, eur(4500), card('tok_visa')));
    expect(order.payment).toMatchObject({ method: 'card', status: 'captured', amount: eur(4500) });
  });
});

describe('POST /orders/{id}/cancel', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  let cart: Cart;
  let order: Order;
  let cancelled: Order;

  it('answers 200 with status cancelled, cancelledAt and a refunded payment; the rest of the order unchanged', async () => {
    // seats A1 and A2 at stalls-full 4500 = 9000
    cart = await createCart(engine, [seat('A1'), seat('A2')]);
    expect(cart.total).toEqual(eur(9000));
    order = await placeOrder(engine, cart.id, eur(9000));
    expect(await available(engine, 'tempest-2027-04-02', 'A1')).toBe(0);

    const response = await engine.request<{ data: Order }>('POST', `/orders/${order.id}/cancel`);
    expect(response.status).toBe(200);
    cancelled = response.body.data;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelledAt).toMatch(ISO_TIMESTAMP);
    expect(cancelled.payment).toMatchObject({ method: 'card', status: 'refunded', amount: eur(9000), reference: order.payment.reference });
    expect({ ...cancelled, status: order.status, cancelledAt: undefined, payment: order.payment }).toEqual(order);
  });

  it('GET /orders/{id} shows the cancellation', async () => {
    const read = await engine.request<{ data: Order }>('GET', `/orders/${order.id}`, { key: engine.keys.ordersRead });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(cancelled);
  });

  it('puts the seats back on sale: available is restored and the same seat can be bought in a new cart', async () => {
    expect(await available(engine, 'tempest-2027-04-02', 'A1')).toBe(1);
    expect(await available(engine, 'tempest-2027-04-02', 'A2')).toBe(1);
    const again = await createCart(engine, [seat('A1')]);
    const resold = await placeOrder(engine, again.id, eur(4500));
    expect(resold.tickets).toHaveLength(1);
    expect(await available(engine, 'tempest-2027-04-02', 'A1')).toBe(0);
  });

  it('puts general-admission stock back too: 3 standing → available +3', async () => {
    const before = await available(engine, 'brass-2027-03-12', 'standing');
    const standing = await createCart(engine, [concert(3)]);
    const sold = await placeOrder(engine, standing.id, eur(11700));
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(before - 3);
    expect((await engine.request('POST', `/orders/${sold.id}/cancel`)).status).toBe(200);
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(before);
  });

  it('cancelling twice answers 200 and changes nothing', async () => {
    const response = await engine.request<{ data: Order }>('POST', `/orders/${order.id}/cancel`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(cancelled);
    // the seat resold above stays sold
    expect(await available(engine, 'tempest-2027-04-02', 'A1')).toBe(0);
  });

  it('the cart still answers 409 CART_ALREADY_ORDERED with details.orderId after the cancellation', async () => {
    const read = expectError(await engine.request('GET', `/carts/${cart.id}`), 409, 'CART_ALREADY_ORDERED');
    expect(read.details?.orderId).toBe(order.id);
    const pay = expectError(await checkout(engine, cart.id, eur(9000)), 409, 'CART_ALREADY_ORDERED');
    expect(pay.details?.orderId).toBe(order.id);
  });

  it('a cancelled LUCKY50 order gives the redemption back: another cart can then use LUCKY50', async () => {
    // 2 × standing-student 2900 = 5800, − 50 % = 2900
    const lucky = await createCart(engine, [concert(2, 'standing-student')]);
    const discounted = cartOf(await engine.request('POST', `/carts/${lucky.id}/vouchers`, { body: { code: 'LUCKY50' } }));
    expect(discounted.total).toEqual(eur(2900));
    const luckyOrder = await placeOrder(engine, lucky.id, eur(2900));

    const next = await createCart(engine, [concert(1)]);
    const refused = expectError(await engine.request('POST', `/carts/${next.id}/vouchers`, { body: { code: 'LUCKY50' } }), 400, 'INVALID_VOUCHER');
    expect(refused.details?.reason).toBe('fully_redeemed');

    expect((await engine.request('POST', `/orders/${luckyOrder.id}/cancel`)).status).toBe(200);
    // 3900 − 50 % = 1950
    const applied = cartOf(await engine.request('POST', `/carts/${next.id}/vouchers`, { body: { code: 'LUCKY50' } }));
    expect(applied.total).toEqual(eur(1950));
    expect((await placeOrder(engine, next.id, eur(1950))).total).toEqual(eur(1950));
    // used up again by that order
    const third = await createCart(engine, [concert(1)]);
    expectError(await engine.request('POST', `/carts/${third.id}/vouchers`, { body: { code: 'LUCKY50' } }), 400, 'INVALID_VOUCHER');
  });

  it('voids the gift cards of a cancelled gift-card order', async () => {
    const gift = await createCart(engine, [giftCard('gift-25')]);
    const giftOrder = await placeOrder(engine, gift.id, eur(2500));
    expect(giftOrder.giftCards.map((card) => card.status)).toEqual(['active']);
    const response = await engine.request<{ data: Order }>('POST', `/orders/${giftOrder.id}/cancel`);
    expect(response.status).toBe(200);
    expect(response.body.data.giftCards).toEqual([{ ...giftOrder.giftCards[0], status: 'void' }]);
  });

  it('refunds a cash order too', async () => {
    const cashCart = await createCart(engine, [seat('B1')]);
    const cashOrder = await placeOrder(engine, cashCart.id, eur(4500), cash(eur(5000)));
    const response = await engine.request<{ data: Order }>('POST', `/orders/${cashOrder.id}/cancel`);
    expect(response.status).toBe(200);
    expect(response.body.data.payment).toMatchObject({ method: 'cash', status: 'refunded', amount: eur(4500), tendered: eur(5000), change: eur(500) });
  });

  it('needs orders:write: an orders:read key and a carts:write key answer 403, and nothing is cancelled', async () => {
    const kept = await placeOrder(engine, (await createCart(engine, [seat('B2')])).id, eur(4500));
    for (const key of [engine.keys.ordersRead, engine.keys.carts]) {
      const error = expectError(await engine.request('POST', `/orders/${kept.id}/cancel`, { key }), 403, 'INSUFFICIENT_PERMISSIONS');
      expect(error.details?.requiredScope).toBe('orders:write');
    }
    const read = await engine.request<{ data: Order }>('GET', `/orders/${kept.id}`, { key: engine.keys.ordersRead });
    expect(read.body.data.status).toBe('confirmed');
    const writer = await engine.createKey(['orders:write'], { owner: TEST_OWNER });
    const done = await engine.request<{ data: Order }>('POST', `/orders/${kept.id}/cancel`, { key: writer });
    expect(done.status).toBe(200);
    expect(done.body.data.status).toBe('cancelled');
  });

  it('an unknown order answers 404 RESOURCE_NOT_FOUND', async () => {
    expectError(await engine.request('POST', '/orders/ord_nosuchorder/cancel'), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('GET /orders', () => {
  let engine: TestEngine;
  let clock = Date.now();
  const orders: Order[] = [];
  beforeAll(async () => {
    // a clock the test moves one second per order, so "newest first" has one right answer
    engine = await startTestEngine({ now: () => clock });
    for (const seatId of ['F1', 'F2', 'F3', 'F4', 'F5']) {
      clock += 1000;
      const cart = await createCart(engine, [seat(seatId)]);
      orders.push(await placeOrder(engine, cart.id, eur(4500)));
    }
  });
  afterAll(() => engine.close());

  const idsOf = (list: readonly Order[]) => list.map((order) => order.id);

  it('lists newest first, with no nextCursor when everything fits', async () => {
    const response = await listOrders(engine);
    expect(response.status).toBe(200);
    expect(idsOf(response.body.data)).toEqual(idsOf([...orders].reverse()));
    expect(response.body.data[0]).toEqual(orders[4]);
    expect(response.body.nextCursor).toBeUndefined();
  });

  it('?limit=2 gives 2 and a nextCursor; following the cursors gives every order once, in order', async () => {
    const first = await listOrders(engine, '?limit=2');
    expect(first.status).toBe(200);
    expect(idsOf(first.body.data)).toEqual([orders[4]?.id, orders[3]?.id]);
    expect(typeof first.body.nextCursor).toBe('string');

    const second = await listOrders(engine, `?limit=2&cursor=${encodeURIComponent(first.body.nextCursor ?? '')}`);
    expect(second.status).toBe(200);
    expect(idsOf(second.body.data)).toEqual([orders[2]?.id, orders[1]?.id]);
    expect(typeof second.body.nextCursor).toBe('string');

    const third = await listOrders(engine, `?limit=2&cursor=${encodeURIComponent(second.body.nextCursor ?? '')}`);
    expect(third.status).toBe(200);
    expect(idsOf(third.body.data)).toEqual([orders[0]?.id]);
    expect(third.body.nextCursor).toBeUndefined();
  });

  it('?limit=5 with exactly 5 orders gives all five and no nextCursor; ?limit=200 is allowed', async () => {
    const exact = await listOrders(engine, '?limit=5');
    expect(exact.status).toBe(200);
    expect(exact.body.data).toHaveLength(5);
    expect(exact.body.nextCursor).toBeUndefined();
    const widest = await listOrders(engine, '?limit=200');
    expect(widest.status).toBe(200);
    expect(widest.body.data).toHaveLength(5);
  });

  it.each(['0', '201', 'x', '-1', '2.5'])('?limit=%s answers 400 INVALID_FIELD_VALUE', async (limit) => {
    expectError(await listOrders(engine, `?limit=${limit}`), 400, 'INVALID_FIELD_VALUE', 'limit');
  });

  it.each(['garbage', 'eyJhIjoxfQ', '%5B%5D'])('a garbage cursor (%s) answers 400 INVALID_FIELD_VALUE', async (cursor) => {
    expectError(await listOrders(engine, `?cursor=${cursor}`), 400, 'INVALID_FIELD_VALUE', 'cursor');
  });

  it('?ticketCode=CODE finds the order holding that ticket, also lower-cased', async () => {
    const target = orders[2];
    const code = target?.tickets[0]?.code ?? 'missing';
    const found = await listOrders(engine, `?ticketCode=${code}`);
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual([target]);
    const lower = await listOrders(engine, `?ticketCode=${code.toLowerCase()}`);
    expect(lower.status).toBe(200);
    expect(idsOf(lower.body.data)).toEqual([target?.id]);
  });

  it('an unknown ticket code answers 200 with data []', async () => {
    const response = await listOrders(engine, '?ticketCode=ZZZZZZZZZZZZZZZZZZZZ');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
  });

  it('a cancelled order is still listed, with its new status', async () => {
    const target = orders[0];
    expect((await engine.request('POST', `/orders/${target?.id ?? 'missing'}/cancel`)).status).toBe(200);
    const response = await listOrders(engine);
    expect(idsOf(response.body.data)).toEqual(idsOf([...orders].reverse()));
    expect(response.body.data[4]?.status).toBe('cancelled');
  });

  it('needs orders:read: a carts:write key answers 403 with requiredScope', async () => {
    const error = expectError(await engine.request('GET', '/orders', { key: engine.keys.carts }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(error.details?.requiredScope).toBe('orders:read');
  });
});
