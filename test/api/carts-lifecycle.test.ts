import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL, smallCatalog } from '../fixtures/small-catalog';
import { available, cartOf, concert, createCart, errorOf, postCart, seat, type Cart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';

/** Reading, re-pricing and releasing carts, and holds that time out (spec §3, §4.2–4.4; contract §3, §5). */


describe('GET /carts/{id}', () => {
  let engine: TestEngine;
  let cart: Cart;
  beforeAll(async () => {
    engine = await startTestEngine();
    // 2 × standing-adult (3900) + 1 × standing-student (2900) = 10700 EUR cents
    cart = await createCart(engine, [concert(2), concert(1, 'standing-student')]);
  });
  afterAll(() => engine.close());

  it('answers 200 with the same cart the create answered', async () => {
    const read = cartOf(await engine.request('GET', `/carts/${cart.id}`));
    expect(read).toEqual(cart);
    expect(read.total).toEqual({ amount: 10700, currency: 'EUR' });
  });

  it('?currency=USD prices this answer in USD, and a following plain GET is still EUR', async () => {
    const usd = cartOf(await engine.request('GET', `/carts/${cart.id}?currency=USD`));
    expect(usd.id).toBe(cart.id);
    expect(usd.currency).toBe('USD');
    // 3900 × 1.0825 = 4221.75 → 4222, × 2 = 8444; 2900 × 1.0825 = 3139.25 → 3139; 8444 + 3139 = 11583
    expect(usd.items.map((item) => [item.unitPrice.amount, item.total.amount])).toEqual([
      [4222, 8444],
      [3139, 3139],
    ]);
    expect(usd.total).toEqual({ amount: 11583, currency: 'USD' });
    expect(usd.options.extras?.find((extra) => extra.id === 'parking')?.price).toEqual({ amount: 866, currency: 'USD' });

    const plain = cartOf(await engine.request('GET', `/carts/${cart.id}`));
    expect(plain.currency).toBe('EUR');
    expect(plain.total).toEqual({ amount: 10700, currency: 'EUR' });
  });

  it('?currency=KWD and ?currency=JPY use each currency’s own scale', async () => {
    // KWD: 3900 × 0.3321 × 10 = 12951.9 → 12952 (× 2 = 25904); 2900 × 3.321 = 9630.9 → 9631; 35535
    const kwd = cartOf(await engine.request('GET', `/carts/${cart.id}?currency=KWD`));
    expect(kwd.total).toEqual({ amount: 35535, currency: 'KWD' });
    // JPY: 3900 × 1.6235 = 6331.65 → 6332 (× 2 = 12664); 2900 × 1.6235 = 4708.15 → 4708; 17372
    const jpy = cartOf(await engine.request('GET', `/carts/${cart.id}?currency=JPY`));
    expect(jpy.total).toEqual({ amount: 17372, currency: 'JPY' });
  });

  it('answers the currency errors for ?currency=', async () => {
    errorOf(await engine.request('GET', `/carts/${cart.id}?currency=CHF`), 503, 'CURRENCY_TEMPORARILY_UNAVAILABLE');
    const error = errorOf(await engine.request('GET', `/carts/${cart.id}?currency=SEK`), 400, 'CURRENCY_NOT_SUPPORTED');
    expect(error.details?.supportedCurrencies).toEqual(['EUR', 'USD', 'GBP', 'JPY', 'KWD', 'CHF']);
    errorOf(await engine.request('GET', `/carts/${cart.id}?currency=usd`), 400, 'INVALID_FIELD_VALUE', 'currency');
    const still = cartOf(await engine.request('GET', `/carts/${cart.id}`));
    expect(still.total).toEqual({ amount: 10700, currency: 'EUR' });
  });

  it('answers 404 RESOURCE_NOT_FOUND for an unknown cart', async () => {
    errorOf(await engine.request('GET', '/carts/no-such-cart'), 404, 'RESOURCE_NOT_FOUND');
  });

  it('needs a key: none answers 401 INVALID_API_KEY', async () => {
    errorOf(await engine.request('GET', `/carts/${cart.id}`, { key: null }), 401, 'INVALID_API_KEY');
    errorOf(await engine.request('GET', `/carts/${cart.id}`, { key: 'not-a-key' }), 401, 'INVALID_API_KEY');
  });

  it('needs carts:write, reads included: a catalog:read key answers 403', async () => {
    const error = errorOf(await engine.request('GET', `/carts/${cart.id}`, { key: engine.keys.catalogRead }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(error.details?.requiredScope).toBe('carts:write');
    cartOf(await engine.request('GET', `/carts/${cart.id}`, { key: engine.keys.carts }));
  });
});

describe('PATCH /carts/{id} (currency)', () => {
  let engine: TestEngine;
  let cart: Cart;
  beforeAll(async () => {
    engine = await startTestEngine();
    cart = await createCart(engine, [concert(2)]); // 7800 EUR
  });
  afterAll(() => engine.close());

  it('switches the cart currency and reprices it; later reads keep it', async () => {
    const patched = cartOf(await engine.request('PATCH', `/carts/${cart.id}`, { body: { currency: 'GBP' } }));
    expect(patched.currency).toBe('GBP');
    // 3900 × 0.8571 = 3342.69 → 3343, × 2 = 6686
    expect(patched.items[0]?.unitPrice).toEqual({ amount: 3343, currency: 'GBP' });
    expect(patched.total).toEqual({ amount: 6686, currency: 'GBP' });
    expect(patched.options.extras?.find((extra) => extra.id === 'parking')?.price).toEqual({ amount: 686, currency: 'GBP' }); // 800 × 0.8571 = 685.68 → 686
    const read = cartOf(await engine.request('GET', `/carts/${cart.id}`));
    expect(read).toEqual(patched);
  });

  it('CHF answers 503 and leaves the cart as it was', async () => {
    errorOf(await engine.request('PATCH', `/carts/${cart.id}`, { body: { currency: 'CHF' } }), 503, 'CURRENCY_TEMPORARILY_UNAVAILABLE');
    const read = cartOf(await engine.request('GET', `/carts/${cart.id}`));
    expect(read.currency).toBe('GBP');
    expect(read.total).toEqual({ amount: 6686, currency: 'GBP' });
  });

  it('an unsupported or malformed currency answers 400 and leaves the cart as it was', async () => {
    const error = errorOf(await engine.request('PATCH', `/carts/${cart.id}`, { body: { currency: 'SEK' } }), 400, 'CURRENCY_NOT_SUPPORTED');
    expect(error.details?.supportedCurrencies).toEqual(['EUR', 'USD', 'GBP', 'JPY', 'KWD', 'CHF']);
    errorOf(await engine.request('PATCH', `/carts/${cart.id}`, { body: { currency: 'XYZ' } }), 400, 'CURRENCY_NOT_SUPPORTED');
    errorOf(await engine.request('PATCH', `/carts/${cart.id}`, { body: { currency: 'eur' } }), 400, 'INVALID_FIELD_VALUE', 'currency');
    errorOf(await engine.request('PATCH', `/carts/${cart.id}`, { body: {} }), 400, 'MISSING_REQUIRED_FIELD', 'currency');
    const read = cartOf(await engine.request('GET', `/carts/${cart.id}`));
    expect(read.total).toEqual({ amount: 6686, currency: 'GBP' });
  });

  it('switches to JPY (no decimals) and back to the base currency exactly', async () => {
    const jpy = cartOf(await engine.request('PATCH', `/carts/${cart.id}`, { body: { currency: 'JPY' } }));
    expect(jpy.total).toEqual({ amount: 12664, currency: 'JPY' }); // 6332 × 2
    const eur = cartOf(await engine.request('PATCH', `/carts/${cart.id}`, { body: { currency: 'EUR' } }));
    expect(eur.total).toEqual({ amount: 7800, currency: 'EUR' });
  });

  it('answers 404 for an unknown cart', async () => {
    errorOf(await engine.request('PATCH', '/carts/no-such-cart', { body: { currency: 'USD' } }), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('DELETE /carts/{id}', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('answers 204 with no body, releases the stock, and 204 again when repeated', async () => {
    const cart = await createCart(engine, [concert(4)]);
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(36);
    const first = await engine.request('DELETE', `/carts/${cart.id}`);
    expect(first.status).toBe(204);
    expect(first.body).toBeUndefined();
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(40);
    const again = await engine.request('DELETE', `/carts/${cart.id}`);
    expect(again.status).toBe(204);
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(40);
  });

  it('a deleted cart answers 410 CART_EXPIRED to every other operation', async () => {
    const cart = await createCart(engine, [concert(1)]);
    const admission = cart.items[0]?.id ?? 'missing';
    expect((await engine.request('DELETE', `/carts/${cart.id}`)).status).toBe(204);

    errorOf(await engine.request('GET', `/carts/${cart.id}`), 410, 'CART_EXPIRED');
    errorOf(await engine.request('GET', `/carts/${cart.id}?currency=USD`), 410, 'CART_EXPIRED');
    errorOf(await engine.request('PATCH', `/carts/${cart.id}`, { body: { currency: 'USD' } }), 410, 'CART_EXPIRED');
    errorOf(await engine.request('POST', `/carts/${cart.id}/items`, { body: { items: [{ extraId: 'parking', quantity: 1 }] } }), 410, 'CART_EXPIRED');
    errorOf(await engine.request('PATCH', `/carts/${cart.id}/items/${admission}`, { body: { quantity: 2 } }), 410, 'CART_EXPIRED');
    errorOf(await engine.request('DELETE', `/carts/${cart.id}/items/${admission}`), 410, 'CART_EXPIRED');
    errorOf(await engine.request('POST', `/carts/${cart.id}/vouchers`, { body: { code: 'WELCOME10' } }), 410, 'CART_EXPIRED');
    errorOf(await engine.request('DELETE', `/carts/${cart.id}/vouchers/WELCOME10`), 410, 'CART_EXPIRED');
    // and DELETE stays idempotent
    expect((await engine.request('DELETE', `/carts/${cart.id}`)).status).toBe(204);
  });

  it('a cart replaced through previousCartId is gone: DELETE answers 410', async () => {
    const old = await createCart(engine, [seat('A1')]);
    cartOf(await postCart(engine, { items: [seat('A2')], previousCartId: old.id }), 201);
    errorOf(await engine.request('DELETE', `/carts/${old.id}`), 410, 'CART_EXPIRED');
    expect(await available(engine, 'tempest-2027-04-02', 'A1')).toBe(1);
  });

  it('answers 404 RESOURCE_NOT_FOUND for an unknown cart', async () => {
    errorOf(await engine.request('DELETE', '/carts/no-such-cart'), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('a hold that times out (the default 15 minutes on the engine\'s clock, no sweeper)', () => {
  let engine: TestEngine;
  let clock = Date.parse('2027-01-10T10:00:00Z');
  /** moves the engine's clock just past a cart's expiresAt */
  const pass = (iso: string) => {
    clock = Math.max(clock, Date.parse(iso) + 1);
  };
  beforeAll(async () => {
    // the sweeper runs once an hour here, so only the request path itself can free the stock
    engine = await startTestEngine({ now: () => clock, sweepIntervalMs: 3_600_000 });
  });
  afterAll(() => engine.close());

  it('expiresAt is fifteen minutes ahead', async () => {
    const cart = await createCart(engine, [concert(1, 'balcony-adult', 'brass-2027-03-13')]);
    expect(Date.parse(cart.expiresAt)).toBe(clock + 900 * 1000);
  });

  it('one millisecond before expiresAt the cart still holds', async () => {
    const cart = await createCart(engine, [concert(1, 'balcony-adult', 'brass-2027-03-13')]);
    clock = Date.parse(cart.expiresAt) - 1;
    cartOf(await engine.request('GET', `/carts/${cart.id}`));
    clock += 1;
    errorOf(await engine.request('GET', `/carts/${cart.id}`), 410, 'CART_EXPIRED');
  });

  it('after expiresAt: GET 410, stock back in the inventory, DELETE 410, extras and vouchers 410', async () => {
    const cart = await createCart(engine, [concert(5)]);
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(35);
    pass(cart.expiresAt);

    errorOf(await engine.request('GET', `/carts/${cart.id}`), 410, 'CART_EXPIRED');
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(40);
    errorOf(await engine.request('DELETE', `/carts/${cart.id}`), 410, 'CART_EXPIRED');
    errorOf(await engine.request('PATCH', `/carts/${cart.id}`, { body: { currency: 'USD' } }), 410, 'CART_EXPIRED');
    errorOf(await engine.request('POST', `/carts/${cart.id}/items`, { body: { items: [{ extraId: 'parking', quantity: 1 }] } }), 410, 'CART_EXPIRED');
    errorOf(await engine.request('POST', `/carts/${cart.id}/vouchers`, { body: { code: 'WELCOME10' } }), 410, 'CART_EXPIRED');
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(40);
  });

  it('a timed-out seat sells again to the next cart', async () => {
    const first = await createCart(engine, [seat('B5')]);
    errorOf(await postCart(engine, { items: [seat('B5')] }), 409, 'INVENTORY_EXHAUSTED', 'items[0].quantity');
    pass(first.expiresAt);
    const second = await createCart(engine, [seat('B5')]);
    expect(second.items[0]?.inventoryItemId).toBe('B5');
    errorOf(await engine.request('GET', `/carts/${first.id}`), 410, 'CART_EXPIRED');
  });
});

describe('capacity under concurrent creates', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine({ demo: false });
    const imported = await engine.request('PUT', '/catalog', { body: smallCatalog() });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
  });
  afterAll(() => engine.close());

  it('20 parallel creates of quantity 1 against capacity 5: exactly 5 × 201 and 15 × 409, then available 0', async () => {
    expect(await available(engine, SMALL.occurrenceId, SMALL.inventoryItemId)).toBe(SMALL.capacity);
    const item = { occurrenceId: SMALL.occurrenceId, inventoryItemId: SMALL.inventoryItemId, priceOptionId: SMALL.priceOptionId, quantity: 1 };
    const responses = await Promise.all(Array.from({ length: 20 }, () => postCart(engine, { items: [item] })));

    const created = responses.filter((response) => response.status === 201);
    const refused = responses.filter((response) => response.status === 409);
    expect(created).toHaveLength(5);
    expect(refused).toHaveLength(15);

    const carts = created.map((response) => cartOf(response, 201));
    expect(new Set(carts.map((cart) => cart.id)).size).toBe(5);
    for (const cart of carts) expect(cart.total).toEqual({ amount: SMALL.price, currency: 'EUR' });
    for (const response of refused) {
      const error = errorOf(response, 409, 'INVENTORY_EXHAUSTED', 'items[0].quantity');
      expect(error.details).toMatchObject({ availableQuantity: 0, requestedQuantity: 1 });
    }
    expect(await available(engine, SMALL.occurrenceId, SMALL.inventoryItemId)).toBe(0);
  });
});
