import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available, cartOf, concert, createCart, giftCard, itemWhere, seat, type Cart } from '../helpers/cart-assertions';
import { startTestEngine, TEST_OWNER, type ApiResponse, type TestEngine } from '../helpers/engine';
import {
  card,
  cash,
  checkout,
  eur,
  expectError,
  ISO_TIMESTAMP,
  newKey,
  orderOf,
  replayed,
  TICKET_CODE,
  type Order,
  type PaymentRequest,
} from '../helpers/orders';

/** POST /orders and GET /orders/{id}: a cart becomes an order (spec §3, §4.7–4.8, §7.6; contract §4–7). */

describe('POST /orders: a card checkout of a held cart', () => {
  let engine: TestEngine;
  let cart: Cart;
  let response: ApiResponse;
  let order: Order;
  let standingBefore: number;
  beforeAll(async () => {
    engine = await startTestEngine();
    standingBefore = await available(engine, 'brass-2027-03-12', 'standing');
    // 3 × standing-adult 3900 = 11700, + 1 × parking 800 = 12500 EUR cents
    const created = await createCart(engine, [concert(3)]);
    cart = cartOf(await engine.request('POST', `/carts/${created.id}/items`, { body: { items: [{ extraId: 'parking', quantity: 1 }] } }));
    response = await checkout(engine, cart.id, cart.total);
    order = orderOf(response);
  });
  afterAll(() => engine.close());

  it('answers 201 with the order of contract §4, total and lines copied from the cart', () => {
    expect(cart.total).toEqual(eur(12500));
    expect(response.status).toBe(201);
    expect(replayed(response)).toBeNull();
    expect(order.id).toMatch(/^ord_./);
    expect(order.cartId).toBe(cart.id);
    expect(order.status).toBe('confirmed');
    expect(order.createdAt).toMatch(ISO_TIMESTAMP);
    expect(order.cancelledAt).toBeUndefined();
    expect(order.currency).toBe('EUR');
    expect(order.total).toEqual(eur(12500));
    expect(order.items).toEqual(cart.items);
    expect(order.receiptLines).toEqual(cart.receiptLines);
    expect(order.giftCards).toEqual([]);
  });

  it('records a captured card payment of the total with a reference', () => {
    expect(order.payment).toMatchObject({ method: 'card', status: 'captured', amount: eur(12500) });
    expect(typeof order.payment.reference).toBe('string');
    expect(order.payment.reference?.length).toBeGreaterThan(0);
    expect(order.payment.authenticated).not.toBe(true);
    expect(order.payment.change).toBeUndefined();
  });

  it('issues one ticket per admitted person (3 standing → 3; none for parking), codes distinct, 20 chars of Crockford base32', () => {
    const admission = itemWhere(cart, (item) => item.type === 'admission');
    expect(order.tickets).toHaveLength(3);
    for (const ticket of order.tickets) {
      expect(ticket.code).toMatch(TICKET_CODE);
      expect(ticket.itemId).toBe(admission.id);
    }
    expect(new Set(order.tickets.map((ticket) => ticket.code)).size).toBe(3);
    expect(new Set(order.tickets.map((ticket) => ticket.id)).size).toBe(3);
  });

  it('says which show it is for: event, date and venue, and each ticket its area (no seat in a standing area)', () => {
    expect(order.event).toEqual({
      id: 'midnight-brass',
      name: 'Midnight Brass — Live in Concert',
      occurrenceId: 'brass-2027-03-12',
      startsAt: '2027-03-12T19:30:00Z',
      location: { id: 'stadthalle', name: 'Stadthalle am Fluss', timeZone: 'Europe/Berlin' },
    });
    for (const ticket of order.tickets) {
      expect(ticket.area).toBe('Standing');
      expect(ticket.seat).toBeUndefined();
    }
  });

  it('keeps the held stock as sold: available stays 3 lower after the order', async () => {
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(standingBefore - 3);
  });

  it('GET /orders/{id} answers 200 with the same order (orders:read)', async () => {
    const read = await engine.request<{ data: Order }>('GET', `/orders/${order.id}`, { key: engine.keys.ordersRead });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(order);
  });

  it('GET /orders/{id} of an unknown order answers 404 RESOURCE_NOT_FOUND', async () => {
    expectError(await engine.request('GET', '/orders/ord_doesnotexist', { key: engine.keys.ordersRead }), 404, 'RESOURCE_NOT_FOUND');
  });

  it('GET /orders/{id} needs orders:read: a carts:write key answers 403', async () => {
    const error = expectError(await engine.request('GET', `/orders/${order.id}`, { key: engine.keys.carts }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(error.details?.requiredScope).toBe('orders:read');
  });

  describe('the cart, once ordered, answers 409 CART_ALREADY_ORDERED with details.orderId', () => {
    const cases: [string, string, () => unknown][] = [
      ['GET', '', () => undefined],
      ['PATCH', '', () => ({ currency: 'USD' })],
      ['DELETE', '', () => undefined],
      ['POST', '/items', () => ({ items: [{ extraId: 'programme', quantity: 1 }] })],
      ['PATCH', '/items/{parking}', () => ({ quantity: 2 })],
      ['DELETE', '/items/{parking}', () => undefined],
      ['POST', '/vouchers', () => ({ code: 'WELCOME10' })],
      ['DELETE', '/vouchers/WELCOME10', () => undefined],
    ];
    it.each(cases)('%s /carts/{id}%s', async (method, suffix, body) => {
      const parking = itemWhere(cart, (item) => item.extraId === 'parking');
      const path = `/carts/${cart.id}${suffix.replace('{parking}', parking.id)}`;
      const sent = body();
      const error = expectError(await engine.request(method, path, sent === undefined ? {} : { body: sent }), 409, 'CART_ALREADY_ORDERED');
      expect(error.details?.orderId).toBe(order.id);
    });

    it('POST /orders with a new idempotency key', async () => {
      const error = expectError(await checkout(engine, cart.id, cart.total), 409, 'CART_ALREADY_ORDERED');
      expect(error.details?.orderId).toBe(order.id);
    });

    it('POST /orders with a new idempotency key from another API key', async () => {
      // another key of the same till (ownership: another owner's cart is not found at all, see ownership.test.ts)
      const other = await engine.createKey(['orders:write'], { owner: TEST_OWNER });
      const error = expectError(await checkout(engine, cart.id, cart.total, card(), { apiKey: other }), 409, 'CART_ALREADY_ORDERED');
      expect(error.details?.orderId).toBe(order.id);
    });
  });
});

describe('POST /orders: refusals before any payment', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('EXPECTED_TOTAL_MISMATCH for a wrong amount and a wrong currency, 400 each, and the key is not used up', async () => {
    // 1 × standing-adult = 3900 EUR
    const cart = await createCart(engine, [concert(1)]);
    expect(cart.total).toEqual(eur(3900));
    const key = newKey();

    const wrongAmount = expectError(await checkout(engine, cart.id, eur(3800), card(), { idempotencyKey: key }), 400, 'EXPECTED_TOTAL_MISMATCH', 'expectedTotal');
    expect(wrongAmount.details?.total).toEqual(eur(3900));
    const wrongCurrency = expectError(
      await checkout(engine, cart.id, { amount: 3900, currency: 'USD' }, card(), { idempotencyKey: key }),
      400,
      'EXPECTED_TOTAL_MISMATCH',
      'expectedTotal',
    );
    expect(wrongCurrency.details?.total).toEqual(eur(3900));

    const response = await checkout(engine, cart.id, eur(3900), card(), { idempotencyKey: key });
    const order = orderOf(response);
    expect(replayed(response)).toBeNull();
    expect(order.total).toEqual(eur(3900));
  });

  it('a voucher applied after the total was read makes the old total a mismatch', async () => {
    // 2 × standing-student 2900 = 5800; WELCOME10 takes 580 → 5220
    const cart = await createCart(engine, [concert(2, 'standing-student')]);
    const discounted = cartOf(await engine.request('POST', `/carts/${cart.id}/vouchers`, { body: { code: 'WELCOME10' } }));
    expect(discounted.total).toEqual(eur(5220));
    const error = expectError(await checkout(engine, cart.id, eur(5800)), 400, 'EXPECTED_TOTAL_MISMATCH', 'expectedTotal');
    expect(error.details?.total).toEqual(eur(5220));
    expect(orderOf(await checkout(engine, cart.id, eur(5220))).total).toEqual(eur(5220));
  });

  describe('Idempotency-Key must be a UUID v4: otherwise 400 INVALID_IDEMPOTENCY_KEY', () => {
    let cart: Cart;
    beforeAll(async () => {
      cart = await createCart(engine, [concert(1, 'balcony-adult')]);
    });

    const keys: [string, string | null][] = [
      ['missing', null],
      ['not a UUID', 'not-a-uuid'],
      ['empty', ''],
      ['a UUID v1', 'c232ab00-9414-11ec-b3c8-9f6bdeced846'],
      ['a UUID v4 with a wrong variant nibble', '3f1c9a52-7b4e-4d21-c9a3-5e8f0b2d6c17'],
      ['a UUID v4 with a trailing character', '3f1c9a52-7b4e-4d21-89a3-5e8f0b2d6c17x'],
    ];
    it.each(keys)('%s', async (_name, idempotencyKey) => {
      expectError(await checkout(engine, cart.id, cart.total, card(), { idempotencyKey }), 400, 'INVALID_IDEMPOTENCY_KEY');
    });

    it('none of them touched the cart: it is still held and checks out with a valid key (4900)', async () => {
      cartOf(await engine.request('GET', `/carts/${cart.id}`));
      expect(orderOf(await checkout(engine, cart.id, eur(4900))).total).toEqual(eur(4900));
    });
  });

  it('an unknown cart answers 404 RESOURCE_NOT_FOUND', async () => {
    expectError(await checkout(engine, 'no-such-cart', eur(100)), 404, 'RESOURCE_NOT_FOUND', 'cartId');
  });

  it('needs orders:write: an orders:read key answers 403 with requiredScope, a carts:write key too; an orders:write key checks out', async () => {
    const cart = await createCart(engine, [seat('B7')]);
    expect(cart.total).toEqual(eur(4500));
    const key = newKey();
    const byReader = expectError(await checkout(engine, cart.id, cart.total, card(), { idempotencyKey: key, apiKey: engine.keys.ordersRead }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(byReader.details?.requiredScope).toBe('orders:write');
    const byCarts = expectError(await checkout(engine, cart.id, cart.total, card(), { idempotencyKey: key, apiKey: engine.keys.carts }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(byCarts.details?.requiredScope).toBe('orders:write');
    expectError(await checkout(engine, cart.id, cart.total, card(), { idempotencyKey: key, apiKey: null }), 401, 'INVALID_API_KEY');

    const writer = await engine.createKey(['orders:write'], { owner: TEST_OWNER });
    expect(orderOf(await checkout(engine, cart.id, cart.total, card(), { idempotencyKey: key, apiKey: writer })).cartId).toBe(cart.id);
  });

  describe('payment fields (engine decisions), none of which uses up the key', () => {
    let cart: Cart;
    const key = newKey();
    beforeAll(async () => {
      // 1 × standing-student = 2900 EUR
      cart = await createCart(engine, [concert(1, 'standing-student', 'brass-2027-03-13')]);
    });

    it('card without a token → 400 MISSING_REQUIRED_FIELD payment.token', async () => {
      expectError(await checkout(engine, cart.id, eur(2900), { method: 'card' }, { idempotencyKey: key }), 400, 'MISSING_REQUIRED_FIELD', 'payment.token');
    });

    it('card with tendered → 400 INVALID_FIELD_VALUE payment.tendered', async () => {
      const payment: PaymentRequest = { method: 'card', token: 'tok_visa', tendered: eur(3000) };
      expectError(await checkout(engine, cart.id, eur(2900), payment, { idempotencyKey: key }), 400, 'INVALID_FIELD_VALUE', 'payment.tendered');
    });

    it('cash with a token → 400 INVALID_FIELD_VALUE payment.token', async () => {
      const payment: PaymentRequest = { method: 'cash', token: 'tok_visa' };
      expectError(await checkout(engine, cart.id, eur(2900), payment, { idempotencyKey: key }), 400, 'INVALID_FIELD_VALUE', 'payment.token');
    });

    it('cash tendered below the total → 400 INVALID_FIELD_VALUE payment.tendered.amount', async () => {
      expectError(await checkout(engine, cart.id, eur(2900), cash(eur(2899)), { idempotencyKey: key }), 400, 'INVALID_FIELD_VALUE', 'payment.tendered.amount');
    });

    it('cash tendered in another currency → 400 INVALID_FIELD_VALUE payment.tendered.currency', async () => {
      const tendered = { amount: 5000, currency: 'USD' };
      expectError(await checkout(engine, cart.id, eur(2900), cash(tendered), { idempotencyKey: key }), 400, 'INVALID_FIELD_VALUE', 'payment.tendered.currency');
    });

    it('an unknown method → 400 INVALID_FIELD_VALUE', async () => {
      const response = await engine.request('POST', '/orders', {
        body: { cartId: cart.id, expectedTotal: eur(2900), payment: { method: 'cheque' } },
        headers: { 'idempotency-key': key },
      });
      expectError(response, 400, 'INVALID_FIELD_VALUE', 'payment.method');
    });

    it('then cash of 5000 for 2900 with the same key → 201 with change 2100', async () => {
      const response = await checkout(engine, cart.id, eur(2900), cash(eur(5000)), { idempotencyKey: key });
      const order = orderOf(response);
      expect(replayed(response)).toBeNull();
      expect(order.total).toEqual(eur(2900));
      expect(order.payment).toEqual({ method: 'cash', status: 'captured', amount: eur(2900), tendered: eur(5000), change: eur(2100) });
      expect(order.tickets).toHaveLength(1);
    });
  });

  it('cash tendered exactly, or not stated, gives change 0', async () => {
    // 2 × standing-adult 3900 = 7800
    const exact = await createCart(engine, [concert(2, 'standing-adult', 'brass-2027-03-13')]);
    const paidExactly = await checkout(engine, exact.id, eur(7800), cash(eur(7800)));
    expect(orderOf(paidExactly).payment).toEqual({ method: 'cash', status: 'captured', amount: eur(7800), tendered: eur(7800), change: eur(0) });
    // 1 × balcony-adult 4900
    const unstated = await createCart(engine, [concert(1, 'balcony-adult', 'brass-2027-03-13')]);
    const paid = orderOf(await checkout(engine, unstated.id, eur(4900), cash()));
    expect(paid.payment).toEqual({ method: 'cash', status: 'captured', amount: eur(4900), tendered: eur(4900), change: eur(0) });
  });
});

describe('POST /orders: gift cards and other currencies', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('a gift-card order issues exactly one gift card code and no tickets', async () => {
    const cart = await createCart(engine, [giftCard('gift-50')]);
    expect(cart.total).toEqual(eur(5000));
    const order = orderOf(await checkout(engine, cart.id, eur(5000)));
    const item = itemWhere(cart, (line) => line.type === 'giftCard');
    expect(order.total).toEqual(eur(5000));
    expect(order.tickets).toEqual([]);
    expect(order.giftCards).toHaveLength(1);
    expect(order.giftCards[0]).toEqual({ code: expect.stringMatching(TICKET_CODE), itemId: item.id, value: eur(5000), status: 'active' });
  });

  it('a cart switched to USD checks out in USD: 2 × 4222 = 8444', async () => {
    // 3900 × 1.0825 = 4221.75 → 4222
    const cart = await createCart(engine, [concert(2)]);
    const usd = cartOf(await engine.request('PATCH', `/carts/${cart.id}`, { body: { currency: 'USD' } }));
    expect(usd.total).toEqual({ amount: 8444, currency: 'USD' });
    expectError(await checkout(engine, cart.id, eur(7800)), 400, 'EXPECTED_TOTAL_MISMATCH', 'expectedTotal');
    const order = orderOf(await checkout(engine, cart.id, { amount: 8444, currency: 'USD' }));
    expect(order.currency).toBe('USD');
    expect(order.total).toEqual({ amount: 8444, currency: 'USD' });
    expect(order.payment.amount).toEqual({ amount: 8444, currency: 'USD' });
    expect(order.items).toEqual(usd.items);
    expect(order.receiptLines).toEqual(usd.receiptLines);
    expect(order.tickets).toHaveLength(2);
  });

  it('a cart switched to JPY checks out in yen (scale 0): 2 × 6332 = 12664', async () => {
    // 3900 × 162.35 × 10^(0−2) = 6331.65 → 6332
    const cart = await createCart(engine, [concert(2)]);
    const jpy = cartOf(await engine.request('PATCH', `/carts/${cart.id}`, { body: { currency: 'JPY' } }));
    expect(jpy.total).toEqual({ amount: 12664, currency: 'JPY' });
    const order = orderOf(await checkout(engine, cart.id, { amount: 12664, currency: 'JPY' }));
    expect(order.currency).toBe('JPY');
    expect(order.total).toEqual({ amount: 12664, currency: 'JPY' });
    expect(order.payment).toMatchObject({ method: 'card', status: 'captured', amount: { amount: 12664, currency: 'JPY' } });
    expect(order.items.map((item) => item.unitPrice)).toEqual([{ amount: 6332, currency: 'JPY' }]);
  });

  it('a JPY cart paid in cash: tendered 13000 for 12664 gives change 336 JPY', async () => {
    const cart = await createCart(engine, [concert(2, 'standing-adult', 'brass-2027-03-13')], 'JPY');
    expect(cart.total).toEqual({ amount: 12664, currency: 'JPY' });
    const order = orderOf(await checkout(engine, cart.id, cart.total, cash({ amount: 13000, currency: 'JPY' })));
    expect(order.payment.change).toEqual({ amount: 336, currency: 'JPY' });
  });
});

describe('POST /orders: held stock becomes sold, also after the hold time has passed', () => {
  let engine: TestEngine;
  let clock = Date.now();
  beforeAll(async () => {
    engine = await startTestEngine({ now: () => clock, holdSeconds: 900 });
  });
  afterAll(() => engine.close());

  it('ordered stock stays taken; an unordered cart of the same area gets its stock back', async () => {
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(40);
    expect(await available(engine, 'tempest-2027-04-02', 'A1')).toBe(1);
    const ordered = await createCart(engine, [concert(2)]);
    const seatCart = await createCart(engine, [seat('A1')]);
    const unordered = await createCart(engine, [concert(1)]);
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(37);

    await placeOrderOk(engine, ordered);
    const seatOrder = await placeOrderOk(engine, seatCart);
    expect(seatOrder.event?.name).toBe('The Tempest');
    expect(seatOrder.tickets.map(({ area, seat }) => ({ area, seat }))).toEqual([{ area: 'Stalls', seat: 'Row A, Seat 1' }]);
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(37);
    expect(await available(engine, 'tempest-2027-04-02', 'A1')).toBe(0);

    clock += 901_000;
    // 40 − 2 sold − 1 held = 37; the unordered cart's hold timed out (1 back) → 38; the 2 sold stay sold, and so does seat A1
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(38);
    expect(await available(engine, 'tempest-2027-04-02', 'A1')).toBe(0);
    expectError(await postSeat(engine, 'A1'), 409, 'INVENTORY_EXHAUSTED');
    expectError(await engine.request('GET', `/carts/${unordered.id}`), 410, 'CART_EXPIRED');
    expectError(await engine.request('GET', `/carts/${ordered.id}`), 409, 'CART_ALREADY_ORDERED');
  });
});

describe('POST /orders: an expired cart', () => {
  let engine: TestEngine;
  let clock = Date.parse('2027-01-10T10:00:00Z');
  beforeAll(async () => {
    engine = await startTestEngine({ now: () => clock });
  });
  afterAll(() => engine.close());

  it('answers 410 CART_EXPIRED once the default 15-minute hold has passed', async () => {
    const cart = await createCart(engine, [concert(1)]);
    clock += 900 * 1000;
    expectError(await checkout(engine, cart.id, eur(3900)), 410, 'CART_EXPIRED');
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(40);
  });
});

async function placeOrderOk(engine: TestEngine, cart: Cart): Promise<Order> {
  const order = orderOf(await checkout(engine, cart.id, cart.total));
  expect(order.total).toEqual(cart.total);
  return order;
}

function postSeat(engine: TestEngine, seatId: string): Promise<ApiResponse> {
  return engine.request('POST', '/carts', { body: { items: [seat(seatId)] } });
}
