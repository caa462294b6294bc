import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cartOf,
  concert,
  createCart,
  errorOf,
  giftCard,
  itemWhere,
  seat,
  voucherLines,
  type Cart,
  type CartItem,
} from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';

/**
 * Extras (spec §4.5, contract §4) and vouchers (spec §4.6, contract §3) on carts of the demo catalog:
 * parking 800 (max 4), programme 500 (no max), drink 450 (max 10), T-shirt 2500 (max 5), all EUR cents;
 * WELCOME10 10 % and FIVEOFF €5 (both combinable), TEMPEST20 20 % for the-tempest only, SUMMER24 expired.
 */

const addExtras = (engine: TestEngine, cartId: string, items: { extraId: string; quantity: number }[]) =>
  engine.request('POST', `/carts/${cartId}/items`, { body: { items } });
const patchItem = (engine: TestEngine, cartId: string, itemId: string, quantity: unknown) =>
  engine.request('PATCH', `/carts/${cartId}/items/${itemId}`, { body: { quantity } });
const applyVoucher = (engine: TestEngine, cartId: string, code: string) => engine.request('POST', `/carts/${cartId}/vouchers`, { body: { code } });

const extraLine = (cart: Cart, extraId: string): CartItem => itemWhere(cart, (item) => item.type === 'extra' && item.extraId === extraId);
const admissionId = (cart: Cart): string => itemWhere(cart, (item) => item.type === 'admission').id;

describe('extras', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  /** 1 × standing-adult, 3900 EUR cents */
  const ticketCart = () => createCart(engine, [concert(1)]);

  it('POST /items adds an extra line and reprices the cart', async () => {
    const cart = await ticketCart();
    const added = cartOf(await addExtras(engine, cart.id, [{ extraId: 'parking', quantity: 1 }]));
    expect(added.id).toBe(cart.id);
    expect(added.items).toHaveLength(2);
    expect(extraLine(added, 'parking')).toEqual({
      id: expect.any(String),
      type: 'extra',
      name: 'Parking',
      quantity: 1,
      unitPrice: { amount: 800, currency: 'EUR' },
      total: { amount: 800, currency: 'EUR' },
      extraId: 'parking',
    });
    expect(extraLine(added, 'parking').id).not.toBe(admissionId(added));
    expect(added.total).toEqual({ amount: 4700, currency: 'EUR' });
    expect(added.receiptLines.map((line) => [line.sign, line.amount.amount])).toEqual([
      [1, 3900],
      [1, 800],
    ]);
    // the read answers the same
    expect(cartOf(await engine.request('GET', `/carts/${cart.id}`))).toEqual(added);
  });

  it('adding the same extra again grows its line', async () => {
    const cart = await ticketCart();
    const first = cartOf(await addExtras(engine, cart.id, [{ extraId: 'parking', quantity: 1 }]));
    const second = cartOf(await addExtras(engine, cart.id, [{ extraId: 'parking', quantity: 2 }]));
    expect(second.items.filter((item) => item.type === 'extra')).toHaveLength(1);
    const line = extraLine(second, 'parking');
    expect(line.id).toBe(extraLine(first, 'parking').id);
    expect(line.quantity).toBe(3);
    expect(line.total).toEqual({ amount: 2400, currency: 'EUR' });
    expect(second.total).toEqual({ amount: 6300, currency: 'EUR' }); // 3900 + 3 × 800
  });

  it('adds several extras in one request', async () => {
    const cart = await ticketCart();
    const added = cartOf(await addExtras(engine, cart.id, [{ extraId: 'drink', quantity: 2 }, { extraId: 'programme', quantity: 1 }]));
    expect(extraLine(added, 'drink').total.amount).toBe(900);
    expect(extraLine(added, 'programme').total.amount).toBe(500);
    expect(added.total).toEqual({ amount: 5300, currency: 'EUR' }); // 3900 + 900 + 500
  });

  it('more than maxQuantity answers 400 INVALID_FIELD_VALUE at items[i].quantity and changes nothing', async () => {
    const cart = await ticketCart();
    errorOf(await addExtras(engine, cart.id, [{ extraId: 'parking', quantity: 5 }]), 400, 'INVALID_FIELD_VALUE', 'items[0].quantity');
    cartOf(await addExtras(engine, cart.id, [{ extraId: 'parking', quantity: 3 }]));
    // 3 held + 2 more = 5 > 4
    errorOf(await addExtras(engine, cart.id, [{ extraId: 'parking', quantity: 2 }]), 400, 'INVALID_FIELD_VALUE', 'items[0].quantity');
    // counted across the lines of one request too: 3 + 1 = 4 is fine, + 1 = 5 is not
    errorOf(
      await addExtras(engine, cart.id, [{ extraId: 'drink', quantity: 1 }, { extraId: 'parking', quantity: 1 }, { extraId: 'parking', quantity: 1 }]),
      400,
      'INVALID_FIELD_VALUE',
      'items[2].quantity',
    );
    const read = cartOf(await engine.request('GET', `/carts/${cart.id}`));
    expect(read.items.filter((item) => item.type === 'extra').map((item) => [item.extraId, item.quantity])).toEqual([['parking', 3]]);
    expect(read.total).toEqual({ amount: 6300, currency: 'EUR' });
  });

  it('an extra the event does not offer answers 400 at items[i].extraId and adds nothing', async () => {
    const cart = await ticketCart();
    errorOf(await addExtras(engine, cart.id, [{ extraId: 'popcorn', quantity: 1 }]), 400, 'INVALID_FIELD_VALUE', 'items[0].extraId');
    errorOf(await addExtras(engine, cart.id, [{ extraId: 'drink', quantity: 1 }, { extraId: 'popcorn', quantity: 1 }]), 400, 'INVALID_FIELD_VALUE', 'items[1].extraId');
    const read = cartOf(await engine.request('GET', `/carts/${cart.id}`));
    expect(read.items).toHaveLength(1);
    expect(read.total).toEqual({ amount: 3900, currency: 'EUR' });
  });

  it('a theatre or gift-card cart takes no extras (400)', async () => {
    const theatre = await createCart(engine, [seat('A1')]);
    errorOf(await addExtras(engine, theatre.id, [{ extraId: 'parking', quantity: 1 }]), 400, 'INVALID_FIELD_VALUE', 'items[0].extraId');
    const gift = await createCart(engine, [giftCard('gift-25')]);
    errorOf(await addExtras(engine, gift.id, [{ extraId: 'parking', quantity: 1 }]), 400, 'INVALID_FIELD_VALUE', 'items[0].extraId');
    expect(cartOf(await engine.request('GET', `/carts/${gift.id}`)).total).toEqual({ amount: 2500, currency: 'EUR' });
  });

  it('malformed add requests: quantity 0 and a missing extraId', async () => {
    const cart = await ticketCart();
    errorOf(await addExtras(engine, cart.id, [{ extraId: 'parking', quantity: 0 }]), 400, 'INVALID_FIELD_VALUE', 'items[0].quantity');
    errorOf(await engine.request('POST', `/carts/${cart.id}/items`, { body: { items: [{ quantity: 1 }] } }), 400, 'MISSING_REQUIRED_FIELD', 'items[0].extraId');
  });

  it('extras of a USD cart are converted per unit, then × quantity', async () => {
    const cart = await createCart(engine, [concert(1)], 'USD');
    const added = cartOf(await addExtras(engine, cart.id, [{ extraId: 'programme', quantity: 3 }]));
    // 500 × 1.0825 = 541.25 → 541; × 3 = 1623 (converting 1500 at once would give 1623.75 → 1624)
    expect(extraLine(added, 'programme').unitPrice).toEqual({ amount: 541, currency: 'USD' });
    expect(extraLine(added, 'programme').total).toEqual({ amount: 1623, currency: 'USD' });
    expect(added.total).toEqual({ amount: 5845, currency: 'USD' }); // 4222 + 1623
  });

  it('PATCH /items/{itemId} sets the quantity and reprices; up to maxQuantity', async () => {
    const cart = await ticketCart();
    const withParking = cartOf(await addExtras(engine, cart.id, [{ extraId: 'parking', quantity: 2 }]));
    const itemId = extraLine(withParking, 'parking').id;

    const fewer = cartOf(await patchItem(engine, cart.id, itemId, 1));
    expect(extraLine(fewer, 'parking')).toMatchObject({ id: itemId, quantity: 1, total: { amount: 800, currency: 'EUR' } });
    expect(fewer.total).toEqual({ amount: 4700, currency: 'EUR' });

    const most = cartOf(await patchItem(engine, cart.id, itemId, 4));
    expect(extraLine(most, 'parking')).toMatchObject({ quantity: 4, total: { amount: 3200, currency: 'EUR' } });
    expect(most.total).toEqual({ amount: 7100, currency: 'EUR' });
  });

  it('PATCH refuses quantity 0, above maxQuantity, unknown items (404) and admission items (ITEM_NOT_MODIFIABLE)', async () => {
    const cart = await ticketCart();
    const withParking = cartOf(await addExtras(engine, cart.id, [{ extraId: 'parking', quantity: 2 }]));
    const itemId = extraLine(withParking, 'parking').id;

    errorOf(await patchItem(engine, cart.id, itemId, 0), 400, 'INVALID_FIELD_VALUE', 'quantity');
    errorOf(await patchItem(engine, cart.id, itemId, 5), 400, 'INVALID_FIELD_VALUE', 'quantity');
    errorOf(await patchItem(engine, cart.id, itemId, '2'), 400, 'INVALID_FIELD_VALUE', 'quantity');
    errorOf(await patchItem(engine, cart.id, 'itm_no_such_item', 1), 404, 'RESOURCE_NOT_FOUND');
    errorOf(await patchItem(engine, cart.id, admissionId(cart), 2), 400, 'ITEM_NOT_MODIFIABLE');

    const read = cartOf(await engine.request('GET', `/carts/${cart.id}`));
    expect(read).toEqual(withParking);
    expect(read.total).toEqual({ amount: 5500, currency: 'EUR' }); // 3900 + 2 × 800
  });

  it('DELETE /items/{itemId} drops an extra and reprices; again (or unknown) answers 200 with the current cart', async () => {
    const cart = await ticketCart();
    const withExtras = cartOf(await addExtras(engine, cart.id, [{ extraId: 'parking', quantity: 1 }, { extraId: 'tshirt', quantity: 1 }]));
    expect(withExtras.total).toEqual({ amount: 7200, currency: 'EUR' }); // 3900 + 800 + 2500
    const parkingId = extraLine(withExtras, 'parking').id;

    const dropped = cartOf(await engine.request('DELETE', `/carts/${cart.id}/items/${parkingId}`));
    expect(dropped.items.some((item) => item.id === parkingId)).toBe(false);
    expect(dropped.items).toHaveLength(2);
    expect(dropped.total).toEqual({ amount: 6400, currency: 'EUR' });

    const again = cartOf(await engine.request('DELETE', `/carts/${cart.id}/items/${parkingId}`));
    expect(again).toEqual(dropped);
    const unknown = cartOf(await engine.request('DELETE', `/carts/${cart.id}/items/itm_never_existed`));
    expect(unknown).toEqual(dropped);
  });

  it('DELETE of an admission item answers 400 ITEM_NOT_MODIFIABLE and keeps it', async () => {
    const cart = await ticketCart();
    errorOf(await engine.request('DELETE', `/carts/${cart.id}/items/${admissionId(cart)}`), 400, 'ITEM_NOT_MODIFIABLE');
    const gift = await createCart(engine, [giftCard('gift-100')]);
    const giftItem = itemWhere(gift, (item) => item.type === 'giftCard').id;
    errorOf(await engine.request('DELETE', `/carts/${gift.id}/items/${giftItem}`), 400, 'ITEM_NOT_MODIFIABLE');
    errorOf(await patchItem(engine, gift.id, giftItem, 1), 400, 'ITEM_NOT_MODIFIABLE');
    expect(cartOf(await engine.request('GET', `/carts/${cart.id}`))).toEqual(cart);
  });

  it('item operations on an unknown cart answer 404', async () => {
    errorOf(await addExtras(engine, 'no-such-cart', [{ extraId: 'parking', quantity: 1 }]), 404, 'RESOURCE_NOT_FOUND');
    errorOf(await patchItem(engine, 'no-such-cart', 'itm_x', 1), 404, 'RESOURCE_NOT_FOUND');
    errorOf(await engine.request('DELETE', '/carts/no-such-cart/items/itm_x'), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('vouchers', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('WELCOME10 takes 10 % of the ticket subtotal only; extras are not discounted', async () => {
    const cart = await createCart(engine, [concert(2)]); // 7800
    cartOf(await addExtras(engine, cart.id, [{ extraId: 'parking', quantity: 2 }])); // + 1600 = 9400
    const discounted = cartOf(await applyVoucher(engine, cart.id, 'WELCOME10'));
    expect(discounted.vouchers).toEqual([{ code: 'WELCOME10' }]);
    const lines = voucherLines(discounted);
    expect(lines).toHaveLength(1);
    // 10 % of 7800 = 780 (not 10 % of 9400)
    expect(lines[0]).toMatchObject({ sign: -1, amount: { amount: 780, currency: 'EUR' } });
    expect(discounted.total).toEqual({ amount: 8620, currency: 'EUR' });
    expect(cartOf(await engine.request('GET', `/carts/${cart.id}`))).toEqual(discounted);
  });

  it('applying the same voucher twice keeps one voucher line', async () => {
    const cart = await createCart(engine, [concert(2)]);
    cartOf(await applyVoucher(engine, cart.id, 'WELCOME10'));
    const twice = cartOf(await applyVoucher(engine, cart.id, 'WELCOME10'));
    expect(twice.vouchers).toEqual([{ code: 'WELCOME10' }]);
    expect(voucherLines(twice)).toHaveLength(1);
    expect(twice.total).toEqual({ amount: 7020, currency: 'EUR' }); // 7800 − 780
  });

  it('a lower-case code works and is the same voucher', async () => {
    const cart = await createCart(engine, [concert(1)]);
    const applied = cartOf(await applyVoucher(engine, cart.id, 'welcome10'));
    expect(applied.vouchers.map((voucher) => voucher.code.toUpperCase())).toEqual(['WELCOME10']);
    expect(applied.total).toEqual({ amount: 3510, currency: 'EUR' }); // 3900 − 390
    const again = cartOf(await applyVoucher(engine, cart.id, 'WELCOME10'));
    expect(voucherLines(again)).toHaveLength(1);
  });

  it('DELETE /vouchers/{code} removes it and restores the total', async () => {
    const cart = await createCart(engine, [concert(2)]);
    cartOf(await addExtras(engine, cart.id, [{ extraId: 'drink', quantity: 1 }])); // 7800 + 450 = 8250
    const applied = cartOf(await applyVoucher(engine, cart.id, 'WELCOME10'));
    expect(applied.total).toEqual({ amount: 7470, currency: 'EUR' });
    const removed = cartOf(await engine.request('DELETE', `/carts/${cart.id}/vouchers/WELCOME10`));
    expect(removed.vouchers).toEqual([]);
    expect(voucherLines(removed)).toHaveLength(0);
    expect(removed.total).toEqual({ amount: 8250, currency: 'EUR' });
    expect(cartOf(await engine.request('GET', `/carts/${cart.id}`)).total).toEqual({ amount: 8250, currency: 'EUR' });
  });

  it('DELETE /vouchers/{code} matches the code case-insensitively', async () => {
    const cart = await createCart(engine, [concert(1)]);
    cartOf(await applyVoucher(engine, cart.id, 'FIVEOFF'));
    const removed = cartOf(await engine.request('DELETE', `/carts/${cart.id}/vouchers/fiveoff`));
    expect(removed.vouchers).toEqual([]);
    expect(removed.total).toEqual({ amount: 3900, currency: 'EUR' });
  });

  it('FIVEOFF takes €5 off', async () => {
    const cart = await createCart(engine, [concert(1)]);
    const applied = cartOf(await applyVoucher(engine, cart.id, 'FIVEOFF'));
    expect(applied.vouchers).toEqual([{ code: 'FIVEOFF' }]);
    expect(voucherLines(applied)[0]).toMatchObject({ sign: -1, amount: { amount: 500, currency: 'EUR' } });
    expect(applied.total).toEqual({ amount: 3400, currency: 'EUR' });
  });

  it('FIVEOFF is converted once into the cart currency (USD, KWD)', async () => {
    const usd = await createCart(engine, [concert(1)], 'USD');
    const usdApplied = cartOf(await applyVoucher(engine, usd.id, 'FIVEOFF'));
    // 500 × 1.0825 = 541.25 → 541; 4222 − 541 = 3681
    expect(voucherLines(usdApplied)[0]?.amount).toEqual({ amount: 541, currency: 'USD' });
    expect(usdApplied.total).toEqual({ amount: 3681, currency: 'USD' });

    const kwd = await createCart(engine, [concert(1)], 'KWD');
    const kwdApplied = cartOf(await applyVoucher(engine, kwd.id, 'FIVEOFF'));
    // 500 × 0.3321 × 10 = 1660.5 → 1661 (half away from zero); 12952 − 1661 = 11291
    expect(voucherLines(kwdApplied)[0]?.amount).toEqual({ amount: 1661, currency: 'KWD' });
    expect(kwdApplied.total).toEqual({ amount: 11291, currency: 'KWD' });
  });

  it('a percentage is taken of the subtotal in the cart currency, rounded half away from zero', async () => {
    // 15 × standing-student in USD: 2900 × 1.0825 = 3139.25 → 3139; × 15 = 47085; 10 % = 4708.5 → 4709
    const cart = await createCart(engine, [concert(15, 'standing-student', 'brass-2027-03-13')], 'USD');
    expect(cart.total).toEqual({ amount: 47085, currency: 'USD' });
    const applied = cartOf(await applyVoucher(engine, cart.id, 'WELCOME10'));
    expect(voucherLines(applied)[0]?.amount).toEqual({ amount: 4709, currency: 'USD' });
    expect(applied.total).toEqual({ amount: 42376, currency: 'USD' });
  });

  it('a voucher follows a currency switch', async () => {
    const cart = await createCart(engine, [concert(2)]);
    cartOf(await applyVoucher(engine, cart.id, 'WELCOME10'));
    const usd = cartOf(await engine.request('PATCH', `/carts/${cart.id}`, { body: { currency: 'USD' } }));
    // 2 × 4222 = 8444; 10 % = 844.4 → 844; 8444 − 844 = 7600
    expect(voucherLines(usd)[0]?.amount).toEqual({ amount: 844, currency: 'USD' });
    expect(usd.total).toEqual({ amount: 7600, currency: 'USD' });
    const jpy = cartOf(await engine.request('GET', `/carts/${cart.id}?currency=JPY`));
    // 2 × 6332 = 12664; 10 % = 1266.4 → 1266; 11398
    expect(jpy.total).toEqual({ amount: 11398, currency: 'JPY' });
  });

  it('two combinable vouchers can share a cart', async () => {
    const cart = await createCart(engine, [concert(1)]);
    cartOf(await applyVoucher(engine, cart.id, 'WELCOME10'));
    const both = cartOf(await applyVoucher(engine, cart.id, 'FIVEOFF'));
    expect(both.vouchers.map((voucher) => voucher.code).sort()).toEqual(['FIVEOFF', 'WELCOME10']);
    expect(voucherLines(both).map((line) => line.amount.amount).sort((a, b) => a - b)).toEqual([390, 500]);
    expect(both.total).toEqual({ amount: 3010, currency: 'EUR' });
  });

  it('TEMPEST20 is INVALID_VOUCHER on the concert and 20 % off on the-tempest', async () => {
    const concertCart = await createCart(engine, [concert(1)]);
    errorOf(await applyVoucher(engine, concertCart.id, 'TEMPEST20'), 400, 'INVALID_VOUCHER', 'code');
    const unchanged = cartOf(await engine.request('GET', `/carts/${concertCart.id}`));
    expect(unchanged.vouchers).toEqual([]);
    expect(unchanged.total).toEqual({ amount: 3900, currency: 'EUR' });

    const theatre = await createCart(engine, [seat('A1'), seat('A2', 'stalls-concession')]); // 4500 + 3200
    const applied = cartOf(await applyVoucher(engine, theatre.id, 'TEMPEST20'));
    expect(voucherLines(applied)[0]?.amount).toEqual({ amount: 1540, currency: 'EUR' }); // 20 % of 7700
    expect(applied.total).toEqual({ amount: 6160, currency: 'EUR' });
  });

  it('an expired (SUMMER24) or unknown code is INVALID_VOUCHER and changes nothing', async () => {
    const cart = await createCart(engine, [concert(1)]);
    errorOf(await applyVoucher(engine, cart.id, 'SUMMER24'), 400, 'INVALID_VOUCHER', 'code');
    errorOf(await applyVoucher(engine, cart.id, 'NOSUCHCODE'), 400, 'INVALID_VOUCHER', 'code');
    errorOf(await engine.request('POST', `/carts/${cart.id}/vouchers`, { body: {} }), 400, 'MISSING_REQUIRED_FIELD', 'code');
    expect(cartOf(await engine.request('GET', `/carts/${cart.id}`))).toEqual(cart);
  });

  it('a gift-card cart answers VOUCHER_NOT_APPLICABLE_TO_GIFT_CARD', async () => {
    const gift = await createCart(engine, [giftCard('gift-50')]);
    errorOf(await applyVoucher(engine, gift.id, 'WELCOME10'), 400, 'VOUCHER_NOT_APPLICABLE_TO_GIFT_CARD');
    errorOf(await applyVoucher(engine, gift.id, 'FIVEOFF'), 400, 'VOUCHER_NOT_APPLICABLE_TO_GIFT_CARD');
    const read = cartOf(await engine.request('GET', `/carts/${gift.id}`));
    expect(read.vouchers).toEqual([]);
    expect(read.total).toEqual({ amount: 5000, currency: 'EUR' });
  });

  it('voucher operations on an unknown cart answer 404', async () => {
    errorOf(await applyVoucher(engine, 'no-such-cart', 'WELCOME10'), 404, 'RESOURCE_NOT_FOUND');
    errorOf(await engine.request('DELETE', '/carts/no-such-cart/vouchers/WELCOME10'), 404, 'RESOURCE_NOT_FOUND');
  });
});
