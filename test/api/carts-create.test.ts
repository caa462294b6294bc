import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  available,
  cartOf,
  concert,
  createCart,
  errorOf,
  giftCard,
  itemWhere,
  postCart,
  seat,
  type ItemRequest,
} from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';

/** POST /api/v3/carts (spec §4.1, contract §3–§6) against the demo catalog (engine/catalog/demo.ts). */

const DEMO_CURRENCIES = ['EUR', 'USD', 'GBP', 'JPY', 'KWD', 'CHF'];
const HOLD_MS = 900 * 1000; // the default hold (contract §1: --hold-seconds default 900)

describe('POST /carts: a created cart', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('answers 201 with the cart under data, held until now + the hold, priced in the base currency', async () => {
    const before = Date.now();
    const response = await postCart(engine, { items: [concert(2)] });
    const after = Date.now();
    const cart = cartOf(response, 201);

    expect(typeof cart.id).toBe('string');
    expect(cart.id.length).toBeGreaterThan(0);
    expect(cart.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    const expiresAt = Date.parse(cart.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + HOLD_MS - 1000);
    expect(expiresAt).toBeLessThanOrEqual(after + HOLD_MS + 1000);

    expect(cart.currency).toBe('EUR');
    // 2 × standing-adult at 3900 EUR cents
    expect(cart.total).toEqual({ amount: 7800, currency: 'EUR' });
    expect(cart.vouchers).toEqual([]);
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]).toEqual({
      id: expect.any(String),
      type: 'admission',
      name: expect.any(String),
      quantity: 2,
      unitPrice: { amount: 3900, currency: 'EUR' },
      total: { amount: 7800, currency: 'EUR' },
      occurrenceId: 'brass-2027-03-12',
      inventoryItemId: 'standing',
      priceOptionId: 'standing-adult',
    });
    expect(cart.receiptLines).toHaveLength(1);
    expect(cart.receiptLines[0]).toMatchObject({ sign: 1, amount: { amount: 7800, currency: 'EUR' } });
    expect(typeof cart.receiptLines[0]?.type).toBe('string');
    expect(typeof cart.receiptLines[0]?.label).toBe('string');
  });

  it('lists the currencies base first and, for the concert, its extras priced in the cart currency', async () => {
    const cart = await createCart(engine, [concert(1)]);
    expect(cart.options.currencies).toEqual(DEMO_CURRENCIES);
    expect(cart.options.extras).toEqual([
      { id: 'parking', name: 'Parking', price: { amount: 800, currency: 'EUR' }, maxQuantity: 4 },
      { id: 'programme', name: 'Programme booklet', price: { amount: 500, currency: 'EUR' } },
      { id: 'drink', name: 'Drink voucher', price: { amount: 450, currency: 'EUR' }, maxQuantity: 10 },
      { id: 'tshirt', name: 'Tour T-shirt', price: { amount: 2500, currency: 'EUR' }, maxQuantity: 5 },
    ]);
  });

  it('gives every cart its own id', async () => {
    const first = await createCart(engine, [concert(1)]);
    const second = await createCart(engine, [concert(1)]);
    expect(first.id).not.toBe(second.id);
  });

  it('holds the stock it took', async () => {
    const before = await available(engine, 'brass-2027-03-12', 'balcony');
    await createCart(engine, [concert(3, 'balcony-adult')]);
    expect(await available(engine, 'brass-2027-03-12', 'balcony')).toBe(before - 3);
  });

  it('prices several lines of one occurrence and receipts each with a positive sign', async () => {
    const cart = await createCart(engine, [concert(2), concert(1, 'standing-student'), concert(1, 'balcony-adult')]);
    // 2 × 3900 + 1 × 2900 + 1 × 4900
    expect(cart.total).toEqual({ amount: 15600, currency: 'EUR' });
    expect(cart.items.map((item) => item.total.amount)).toEqual([7800, 2900, 4900]);
    expect(cart.receiptLines.map((line) => [line.sign, line.amount.amount])).toEqual([
      [1, 7800],
      [1, 2900],
      [1, 4900],
    ]);
  });

  it('has no extras key for the theatre, which offers none', async () => {
    const cart = await createCart(engine, [seat('A1')]);
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]).toMatchObject({
      type: 'admission',
      quantity: 1,
      unitPrice: { amount: 4500, currency: 'EUR' },
      occurrenceId: 'tempest-2027-04-02',
      inventoryItemId: 'A1',
      priceOptionId: 'stalls-full',
    });
    expect(cart.total).toEqual({ amount: 4500, currency: 'EUR' });
    expect(cart.options.currencies).toEqual(DEMO_CURRENCIES);
    expect('extras' in cart.options).toBe(false);
  });

  it('sells a gift card as a giftCard item with no extras key', async () => {
    const cart = await createCart(engine, [giftCard('gift-50')]);
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]).toMatchObject({
      type: 'giftCard',
      quantity: 1,
      unitPrice: { amount: 5000, currency: 'EUR' },
      total: { amount: 5000, currency: 'EUR' },
      occurrenceId: 'gift-card',
      inventoryItemId: 'gift-card',
      priceOptionId: 'gift-50',
    });
    expect(cart.total).toEqual({ amount: 5000, currency: 'EUR' });
    expect('extras' in cart.options).toBe(false);
  });

  it('accepts the base currency named explicitly', async () => {
    const cart = await createCart(engine, [concert(1)], 'EUR');
    expect(cart.currency).toBe('EUR');
    expect(cart.total).toEqual({ amount: 3900, currency: 'EUR' });
  });

  it('prices a USD cart per unit, then × quantity, and its extras in USD', async () => {
    const cart = await createCart(engine, [concert(3)], 'USD');
    expect(cart.currency).toBe('USD');
    // unit: 3900 × 1.0825 = 4221.75 → 4222; line: 4222 × 3 = 12666 (converting 11700 at once would give 12665)
    expect(cart.items[0]?.unitPrice).toEqual({ amount: 4222, currency: 'USD' });
    expect(cart.items[0]?.total).toEqual({ amount: 12666, currency: 'USD' });
    expect(cart.total).toEqual({ amount: 12666, currency: 'USD' });
    expect(cart.options.currencies).toEqual(DEMO_CURRENCIES);
    // 800 × 1.0825 = 866; 500 × 1.0825 = 541.25 → 541; 450 × 1.0825 = 487.125 → 487; 2500 × 1.0825 = 2706.25 → 2706
    expect(cart.options.extras?.map((extra) => [extra.id, extra.price.amount, extra.price.currency])).toEqual([
      ['parking', 866, 'USD'],
      ['programme', 541, 'USD'],
      ['drink', 487, 'USD'],
      ['tshirt', 2706, 'USD'],
    ]);
  });

  it('prices in GBP: 3900 × 0.8571 = 3342.69 → 3343', async () => {
    const cart = await createCart(engine, [concert(1)], 'GBP');
    expect(cart.total).toEqual({ amount: 3343, currency: 'GBP' });
  });

  it('prices in JPY with no decimals: 3900 × 162.35 / 100 = 6331.65 → 6332 per unit, 2 × 6332 = 12664', async () => {
    const cart = await createCart(engine, [concert(2)], 'JPY');
    expect(cart.items[0]?.unitPrice).toEqual({ amount: 6332, currency: 'JPY' });
    // converting 7800 at once would give 12663.3 → 12663
    expect(cart.total).toEqual({ amount: 12664, currency: 'JPY' });
  });

  it('prices in KWD with three decimals: 3900 × 0.3321 × 10 = 12951.9 → 12952 fils', async () => {
    const cart = await createCart(engine, [concert(1)], 'KWD');
    expect(cart.total).toEqual({ amount: 12952, currency: 'KWD' });
  });
});

describe('POST /carts: refused requests', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('INVENTORY_EXHAUSTED: more than is left, with available and requested quantities', async () => {
    await createCart(engine, [concert(5, 'balcony-adult', 'brass-2027-03-13')]); // balcony capacity 12 → 7 left
    const error = errorOf(await postCart(engine, { items: [concert(8, 'balcony-adult', 'brass-2027-03-13')] }), 409, 'INVENTORY_EXHAUSTED', 'items[0].quantity');
    expect(error.details).toMatchObject({ availableQuantity: 7, requestedQuantity: 8 });
    expect(await available(engine, 'brass-2027-03-13', 'balcony')).toBe(7);
  });

  it('INVENTORY_EXHAUSTED: more than the capacity of a fresh area', async () => {
    const error = errorOf(await postCart(engine, { items: [concert(41)] }), 409, 'INVENTORY_EXHAUSTED', 'items[0].quantity');
    expect(error.details).toMatchObject({ availableQuantity: 40, requestedQuantity: 41 });
  });

  it('INVENTORY_EXHAUSTED on the second item points at items[1].quantity and holds nothing of the first', async () => {
    const items = [concert(2, 'standing-adult', 'brass-2027-03-13'), concert(8, 'balcony-adult', 'brass-2027-03-13')];
    const error = errorOf(await postCart(engine, { items }), 409, 'INVENTORY_EXHAUSTED', 'items[1].quantity');
    expect(error.details).toMatchObject({ availableQuantity: 7, requestedQuantity: 8 });
    expect(await available(engine, 'brass-2027-03-13', 'standing')).toBe(40);
  });

  it('INVENTORY_EXHAUSTED for a seat another cart holds', async () => {
    await createCart(engine, [seat('B1')]);
    const error = errorOf(await postCart(engine, { items: [seat('B1', 'stalls-concession')] }), 409, 'INVENTORY_EXHAUSTED', 'items[0].quantity');
    expect(error.details).toMatchObject({ availableQuantity: 0, requestedQuantity: 1 });
  });

  it('INVENTORY_EXHAUSTED for the same seat twice in one request, and the seat stays free', async () => {
    const error = errorOf(await postCart(engine, { items: [seat('C1'), seat('C1', 'stalls-concession')] }), 409, 'INVENTORY_EXHAUSTED');
    expect(error.param).toMatch(/^items\[[01]\]\.quantity$/);
    expect(error.details).toMatchObject({ availableQuantity: 1, requestedQuantity: 2 });
    expect(await available(engine, 'tempest-2027-04-02', 'C1')).toBe(1);
  });

  it('INVALID_PRICE_OPTION for an unknown price option', async () => {
    errorOf(await postCart(engine, { items: [{ ...concert(1), priceOptionId: 'no-such-option' }] }), 400, 'INVALID_PRICE_OPTION', 'items[0].priceOptionId');
  });

  it('INVALID_PRICE_OPTION for a price option of another area (general and assigned)', async () => {
    errorOf(await postCart(engine, { items: [{ ...concert(1), priceOptionId: 'balcony-adult' }] }), 400, 'INVALID_PRICE_OPTION', 'items[0].priceOptionId');
    errorOf(await postCart(engine, { items: [seat('D1'), seat('D2', 'circle-full')] }), 400, 'INVALID_PRICE_OPTION', 'items[1].priceOptionId');
    expect(await available(engine, 'tempest-2027-04-02', 'D1')).toBe(1);
  });

  it('OCCURRENCE_NOT_AVAILABLE for a date not on sale', async () => {
    const error = errorOf(await postCart(engine, { items: [seat('A1', 'stalls-full', 'tempest-2027-04-16')] }), 409, 'OCCURRENCE_NOT_AVAILABLE');
    expect(error.type).toBe('CONFLICT_ERROR');
    expect(await available(engine, 'tempest-2027-04-16', 'A1')).toBe(1);
  });

  it('MIXED_OCCURRENCES_NOT_SUPPORTED for items of two dates', async () => {
    const items = [concert(1, 'standing-adult', 'brass-2027-03-12'), concert(1, 'standing-adult', 'brass-2027-03-13')];
    errorOf(await postCart(engine, { items }), 400, 'MIXED_OCCURRENCES_NOT_SUPPORTED');
    errorOf(await postCart(engine, { items: [seat('E1'), seat('E2', 'stalls-full', 'tempest-2027-04-09')] }), 400, 'MIXED_OCCURRENCES_NOT_SUPPORTED');
  });

  it('MIXED_PRODUCT_TYPES_NOT_SUPPORTED for a gift card with tickets, in either order', async () => {
    errorOf(await postCart(engine, { items: [concert(1), giftCard()] }), 400, 'MIXED_PRODUCT_TYPES_NOT_SUPPORTED');
    errorOf(await postCart(engine, { items: [giftCard(), seat('E3')] }), 400, 'MIXED_PRODUCT_TYPES_NOT_SUPPORTED');
  });

  it('MULTIPLE_GIFT_CARDS_NOT_SUPPORTED for two gift cards', async () => {
    errorOf(await postCart(engine, { items: [giftCard('gift-25'), giftCard('gift-100')] }), 400, 'MULTIPLE_GIFT_CARDS_NOT_SUPPORTED');
    errorOf(await postCart(engine, { items: [giftCard('gift-50'), giftCard('gift-50')] }), 400, 'MULTIPLE_GIFT_CARDS_NOT_SUPPORTED');
  });

  it('GIFT_CARD_QUANTITY_NOT_SUPPORTED for a gift card of quantity 2', async () => {
    errorOf(await postCart(engine, { items: [giftCard('gift-50', 2)] }), 400, 'GIFT_CARD_QUANTITY_NOT_SUPPORTED', 'items[0].quantity');
  });

  it('INVALID_FIELD_VALUE for an assigned seat of quantity 2', async () => {
    errorOf(await postCart(engine, { items: [{ ...seat('F1'), quantity: 2 }] }), 400, 'INVALID_FIELD_VALUE', 'items[0].quantity');
    errorOf(await postCart(engine, { items: [seat('F2'), { ...seat('F3'), quantity: 2 }] }), 400, 'INVALID_FIELD_VALUE', 'items[1].quantity');
    expect(await available(engine, 'tempest-2027-04-02', 'F2')).toBe(1);
  });

  it('INVALID_FIELD_VALUE naming an unknown occurrence or inventory item', async () => {
    errorOf(await postCart(engine, { items: [{ ...concert(1), occurrenceId: 'no-such-date' }] }), 400, 'INVALID_FIELD_VALUE', 'items[0].occurrenceId');
    errorOf(await postCart(engine, { items: [seat('G1'), seat('Z99')] }), 400, 'INVALID_FIELD_VALUE', 'items[1].inventoryItemId');
  });

  it('INVALID_FIELD_VALUE for quantity 0, a quantity given as a string, and an empty items list', async () => {
    errorOf(await postCart(engine, { items: [concert(0)] }), 400, 'INVALID_FIELD_VALUE', 'items[0].quantity');
    const asString = { ...concert(1), quantity: '1' };
    errorOf(await engine.request('POST', '/carts', { body: { items: [asString] } }), 400, 'INVALID_FIELD_VALUE', 'items[0].quantity');
    errorOf(await engine.request('POST', '/carts', { body: { items: [] } }), 400, 'INVALID_FIELD_VALUE', 'items');
  });

  it('MISSING_REQUIRED_FIELD naming the field, MALFORMED_JSON for a broken body', async () => {
    errorOf(await engine.request('POST', '/carts', { body: {} }), 400, 'MISSING_REQUIRED_FIELD', 'items');
    const noQuantity = { occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult' };
    errorOf(await engine.request('POST', '/carts', { body: { items: [noQuantity] } }), 400, 'MISSING_REQUIRED_FIELD', 'items[0].quantity');
    errorOf(await engine.request('POST', '/carts', { rawBody: '{"items": [' }), 400, 'MALFORMED_JSON');
  });

  it('held nothing for any refused request', async () => {
    // only the 5 balcony seats of the first test and seat B1 were ever held in this engine
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(40);
    expect(await available(engine, 'brass-2027-03-12', 'balcony')).toBe(12);
    expect(await available(engine, 'brass-2027-03-13', 'standing')).toBe(40);
    expect(await available(engine, 'brass-2027-03-13', 'balcony')).toBe(7);
    for (const seatId of ['A1', 'C1', 'D1', 'D2', 'E1', 'E3', 'F1', 'F2', 'F3', 'G1']) {
      expect(await available(engine, 'tempest-2027-04-02', seatId), seatId).toBe(1);
    }
    expect(await available(engine, 'tempest-2027-04-02', 'B1')).toBe(0);
  });
});

describe('POST /carts: currency', () => {
  let engine: TestEngine;
  let locationCurrencies: string[];
  beforeAll(async () => {
    engine = await startTestEngine();
    const locations = await engine.request('GET', '/locations');
    expect(locations.status).toBe(200);
    const data = (locations.body as { data: { id: string; availableCurrencies: string[] }[] }).data;
    locationCurrencies = data.find((location) => location.id === 'stadthalle')?.availableCurrencies ?? [];
  });
  afterAll(() => engine.close());

  it('INVALID_FIELD_VALUE for a value that is not a three-letter upper-case code', async () => {
    for (const currency of ['EURO', 'eur', 'EU', '']) {
      errorOf(await postCart(engine, { items: [concert(1)], currency }), 400, 'INVALID_FIELD_VALUE', 'currency');
    }
  });

  it('CURRENCY_NOT_SUPPORTED for a well-formed code that is not ISO 4217 (XYZ), with the supported currencies', async () => {
    const error = errorOf(await postCart(engine, { items: [concert(1)], currency: 'XYZ' }), 400, 'CURRENCY_NOT_SUPPORTED');
    expect(locationCurrencies).toEqual(DEMO_CURRENCIES);
    expect(error.details?.supportedCurrencies).toEqual(locationCurrencies);
  });

  it('CURRENCY_NOT_SUPPORTED for a real currency the event is not sold in (SEK), with the supported currencies base first', async () => {
    const error = errorOf(await postCart(engine, { items: [concert(1)], currency: 'SEK' }), 400, 'CURRENCY_NOT_SUPPORTED');
    expect(error.details?.supportedCurrencies).toEqual(locationCurrencies);
    expect((error.details?.supportedCurrencies as string[] | undefined)?.[0]).toBe('EUR');
  });

  it('CURRENCY_TEMPORARILY_UNAVAILABLE (503) for CHF, which is sold but has no rate, and holds no stock', async () => {
    const before = await available(engine, 'brass-2027-03-12', 'standing');
    const error = errorOf(await postCart(engine, { items: [concert(4)], currency: 'CHF' }), 503, 'CURRENCY_TEMPORARILY_UNAVAILABLE');
    expect(error.type).toBe('SERVICE_UNAVAILABLE');
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(before);
    expect(before).toBe(40);
    const seatError = await postCart(engine, { items: [seat('A1')], currency: 'CHF' });
    errorOf(seatError, 503, 'CURRENCY_TEMPORARILY_UNAVAILABLE');
    expect(await available(engine, 'tempest-2027-04-02', 'A1')).toBe(1);
  });

  it('a refused currency leaves the stock for the next cart: the same seat then sells in EUR', async () => {
    errorOf(await postCart(engine, { items: [seat('A2')], currency: 'SEK' }), 400, 'CURRENCY_NOT_SUPPORTED');
    const cart = await createCart(engine, [seat('A2')]);
    expect(cart.items[0]?.inventoryItemId).toBe('A2');
  });
});

describe('POST /carts: previousCartId', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('releases the previous cart: it answers 410 and its stock is back', async () => {
    const old = await createCart(engine, [concert(2)]);
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(38);
    const replacement = cartOf(await postCart(engine, { items: [concert(3)], previousCartId: old.id }), 201);
    expect(replacement.id).not.toBe(old.id);
    errorOf(await engine.request('GET', `/carts/${old.id}`), 410, 'CART_EXPIRED');
    // 40 − 3 (the new cart); the old cart's 2 are back
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(37);
    cartOf(await engine.request('GET', `/carts/${replacement.id}`));
  });

  it('never fails the create for an unknown previousCartId', async () => {
    const cart = cartOf(await postCart(engine, { items: [concert(1, 'balcony-adult')], previousCartId: 'no-such-cart' }), 201);
    expect(cart.total).toEqual({ amount: 4900, currency: 'EUR' });
  });

  it('never fails the create for a previous cart that was deleted', async () => {
    const old = await createCart(engine, [concert(1, 'balcony-adult')]);
    expect((await engine.request('DELETE', `/carts/${old.id}`)).status).toBe(204);
    const cart = cartOf(await postCart(engine, { items: [concert(1, 'balcony-adult')], previousCartId: old.id }), 201);
    expect(cart.items[0]?.quantity).toBe(1);
  });

  it('lets seats carry over from the previous cart to the new one', async () => {
    const old = await createCart(engine, [seat('H1'), seat('H2')]);
    // without previousCartId, H1 is taken
    errorOf(await postCart(engine, { items: [seat('H1'), seat('H3')] }), 409, 'INVENTORY_EXHAUSTED', 'items[0].quantity');

    const moved = cartOf(await postCart(engine, { items: [seat('H1'), seat('H3')], previousCartId: old.id }), 201);
    expect(moved.items.map((item) => item.inventoryItemId)).toEqual(['H1', 'H3']);
    errorOf(await engine.request('GET', `/carts/${old.id}`), 410, 'CART_EXPIRED');
    expect(await available(engine, 'tempest-2027-04-02', 'H1')).toBe(0);
    expect(await available(engine, 'tempest-2027-04-02', 'H2')).toBe(1);
    expect(await available(engine, 'tempest-2027-04-02', 'H3')).toBe(0);
  });

  it('leaves the previous cart holding when the new cart is refused', async () => {
    const old = await createCart(engine, [seat('J1')]);
    const items: ItemRequest[] = [seat('J1'), seat('no-such-seat')];
    errorOf(await postCart(engine, { items, previousCartId: old.id }), 400, 'INVALID_FIELD_VALUE', 'items[1].inventoryItemId');
    const still = cartOf(await engine.request('GET', `/carts/${old.id}`));
    expect(still.items.map((item) => item.inventoryItemId)).toEqual(['J1']);
    expect(await available(engine, 'tempest-2027-04-02', 'J1')).toBe(0);
  });

  it('a previous cart of another occurrence is released too', async () => {
    const old = await createCart(engine, [concert(4, 'standing-adult', 'brass-2027-03-13')]);
    expect(await available(engine, 'brass-2027-03-13', 'standing')).toBe(36);
    const cart = cartOf(await postCart(engine, { items: [seat('K1')], previousCartId: old.id }), 201);
    expect(itemWhere(cart, (item) => item.inventoryItemId === 'K1').type).toBe('admission');
    expect(await available(engine, 'brass-2027-03-13', 'standing')).toBe(40);
    errorOf(await engine.request('GET', `/carts/${old.id}`), 410, 'CART_EXPIRED');
  });
});

describe('POST /carts: a previousCartId whose hold timed out', () => {
  let engine: TestEngine;
  let clock = Date.parse('2027-01-10T10:00:00Z');
  beforeAll(async () => {
    engine = await startTestEngine({ now: () => clock, sweepIntervalMs: 3_600_000 });
  });
  afterAll(() => engine.close());

  it('never fails the create', async () => {
    const old = await createCart(engine, [seat('A1')]);
    clock = Date.parse(old.expiresAt) + 1;
    const cart = cartOf(await postCart(engine, { items: [seat('A1')], previousCartId: old.id }), 201);
    expect(cart.items[0]?.inventoryItemId).toBe('A1');
    expect(await available(engine, 'tempest-2027-04-02', 'A1')).toBe(0);
  });
});
