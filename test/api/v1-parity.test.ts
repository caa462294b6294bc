import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart, CartItem, InventoryBody } from '../helpers/cart-assertions';
import { startTestEngine, type ApiResponse, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { CONCERT, createChannel, extra, ticket, v1, type Basket, type Channel, type ReservationRequest, type V1Error } from '../helpers/v1';

/**
 * Parity of v1 and v3 (spec §9.1, §9.2): every row of both tables is shopped twice from the same demo
 * catalog — through v1 on one engine, through the v3 calls the row names on another — and the two must
 * end with the same holds, lines, prices, totals and error codes. The mapping used to compare is written
 * here from the spec, not imported from the engine: `aggregateReference` = inventoryItemId:priceOptionId
 * or extra:extraId, money value = amount, errorCode = code, 410 answers 404. A property test at the end
 * sends random baskets through v1 and checks the v3 cart behind each says the same.
 */

interface Outcome {
  status: number;
  code?: string;
  lines?: (string | number)[][];
  vouchers?: string[];
  total?: number;
  currency?: string;
}

const referenceOf = (item: CartItem) => (item.type === 'extra' ? `extra:${item.extraId}` : `${item.inventoryItemId}:${item.priceOptionId}`);

/** a v3 answer in the terms v1 would use */
function fromV3(response: ApiResponse): Outcome {
  if (response.status >= 400) {
    const status = response.status === 410 ? 404 : response.status;
    return { status, code: (response.body as ErrorEnvelope).error.code };
  }
  if (response.status === 204) return { status: 204 };
  const cart = (response.body as { data: Cart }).data;
  expect(cart.expiresAt).toEqual(expect.any(String));
  return {
    status: 200,
    lines: cart.items.map((item) => [referenceOf(item), item.quantity, item.unitPrice.amount, item.total.amount]),
    vouchers: cart.vouchers.map((voucher) => voucher.code),
    total: cart.total.amount,
    currency: cart.total.currency,
  };
}

function fromV1(response: ApiResponse): Outcome {
  if (response.status >= 400) {
    const error = response.body as V1Error;
    expect(error.status).toBe(response.status);
    return { status: response.status, code: error.errorCode };
  }
  if (response.status === 204) return { status: 204 };
  const basket = (response.body as { data: Basket }).data;
  expect(basket).not.toHaveProperty('expiresAt');
  expect(basket.total.decimalPlaces).toBe(2);
  return {
    status: 200,
    lines: basket.reservations.map((r) => [r.aggregateReference, r.quantity, r.price.value, r.total.value]),
    vouchers: basket.promotions,
    total: basket.total.value,
    currency: basket.total.currency,
  };
}

/** The v3 side of a basket: what a v3 client keeps instead of the reference. */
class V3Shopper {
  cartId = '';
  constructor(private readonly engine: TestEngine) {}
  private remember(response: ApiResponse): ApiResponse {
    if (response.status === 201) this.cartId = (response.body as { data: Cart }).data.id;
    return response;
  }
  async create(items: object[], extras: object[] = [], vouchers: string[] = [], replace = false): Promise<Outcome[]> {
    const body = { items, ...(replace && this.cartId && { previousCartId: this.cartId }) };
    const created = this.remember(await this.engine.request('POST', '/carts', { body }));
    if (created.status !== 201) return [fromV3(created)];
    let last = { ...fromV3(created), status: 200 };
    if (extras.length > 0) last = fromV3(await this.addExtras(extras));
    // A v1 upsert is one transaction; the v3 client doing its calls one by one gives back a new cart it
    // could not complete, so both sides compare the same "refused, nothing held".
    if (last.status >= 400 && !replace) await this.engine.request('DELETE', `/carts/${this.cartId}`);
    for (const code of vouchers) last = fromV3(await this.engine.request('POST', `/carts/${this.cartId}/vouchers`, { body: { code } }));
    return [last];
  }
  addExtras = (items: object[]) => this.engine.request('POST', `/carts/${this.cartId}/items`, { body: { items } });
  read = async () => fromV3(await this.engine.request('GET', `/carts/${this.cartId}`));
  lineId = async (reference: string) => {
    const cart = (await this.engine.request<{ data: Cart }>('GET', `/carts/${this.cartId}`)).body.data;
    return cart.items.find((item) => referenceOf(item) === reference)?.id ?? 'none';
  };
}

const v3Ticket = (quantity: number, priceOptionId = 'standing-adult', occurrenceId = CONCERT) => ({
  occurrenceId,
  inventoryItemId: priceOptionId.startsWith('balcony') ? 'balcony' : 'standing',
  priceOptionId,
  quantity,
});

describe('v1 ↔ v3 parity, row by row (spec §9.1 and §9.2)', () => {
  let a: TestEngine;
  let b: TestEngine;
  let channel: Channel;
  let n = 0;
  beforeAll(async () => {
    [a, b] = await Promise.all([startTestEngine(), startTestEngine()]);
    channel = await createChannel(a);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  const upsert = async (reference: string, reservations: ReservationRequest[]) => fromV1(await v1(a, channel, 'PATCH', '/baskets', { body: { reference, reservations } }));
  const call = async (method: string, path: string, body?: unknown) => fromV1(await v1(a, channel, method, path, body === undefined ? {} : { body }));
  const shopper = () => new V3Shopper(b);
  const fresh = () => `p-${(n += 1)}`;

  /** every inventory item of these occurrences has the same `available` on both engines */
  async function sameHolds(...occurrences: string[]): Promise<void> {
    for (const occurrence of occurrences) {
      const snapshot = async (engine: TestEngine) => {
        const inventory = (await engine.request<InventoryBody>('GET', `/occurrences/${occurrence}/inventory`)).body.data;
        return inventory.areas.flatMap((area) => area.inventoryItems.map((item) => [item.id, item.available]));
      };
      expect(await snapshot(a), occurrence).toEqual(await snapshot(b));
    }
  }

  it('§9.1 Create / update: an upsert = POST /carts (+ items); changed tickets = a new cart with previousCartId, extras and vouchers again', async () => {
    const ref = fresh();
    const v3 = shopper();
    expect(await upsert(ref, [ticket(2), extra('parking', 1)])).toEqual((await v3.create([v3Ticket(2)], [{ extraId: 'parking', quantity: 1 }]))[0]);
    await sameHolds(CONCERT);
    expect(await call('PATCH', `/baskets/${ref}/applyPromotion`, { code: 'WELCOME10' })).toEqual(
      fromV3(await b.request('POST', `/carts/${v3.cartId}/vouchers`, { body: { code: 'WELCOME10' } })),
    );
    expect(await upsert(ref, [ticket(3, 'standing-student'), extra('parking', 1)])).toEqual(
      (await v3.create([v3Ticket(3, 'standing-student')], [{ extraId: 'parking', quantity: 1 }], ['WELCOME10'], true))[0],
    );
    await sameHolds(CONCERT);
  });

  it('§9.1 Read: GET /baskets/{reference} = GET /carts/{cartId}', async () => {
    const ref = fresh();
    const v3 = shopper();
    await upsert(ref, [ticket(1, 'balcony-adult'), extra('drink', 3)]);
    await v3.create([v3Ticket(1, 'balcony-adult')], [{ extraId: 'drink', quantity: 3 }]);
    expect(await call('GET', `/baskets/${ref}`)).toEqual(await v3.read());
  });

  it('§9.1 Add items: re-send the whole basket = POST /carts/{cartId}/items', async () => {
    const ref = fresh();
    const v3 = shopper();
    await upsert(ref, [ticket(1)]);
    await v3.create([v3Ticket(1)]);
    expect(await upsert(ref, [ticket(1), extra('programme', 2), extra('tshirt', 1)])).toEqual(
      fromV3(await v3.addExtras([{ extraId: 'programme', quantity: 2 }, { extraId: 'tshirt', quantity: 1 }])),
    );
    // over the extra's cap: the same refusal both ways
    expect(await upsert(ref, [ticket(1), extra('parking', 5)])).toEqual(fromV3(await v3.addExtras([{ extraId: 'parking', quantity: 5 }])));
    expect(await call('GET', `/baskets/${ref}`)).toEqual(await v3.read());
    await sameHolds(CONCERT);
  });

  it('§9.1 Change quantity: re-send the whole basket = PATCH /carts/{cartId}/items/{itemId}', async () => {
    const ref = fresh();
    const v3 = shopper();
    await upsert(ref, [ticket(1), extra('drink', 1)]);
    await v3.create([v3Ticket(1)], [{ extraId: 'drink', quantity: 1 }]);
    const drink = await v3.lineId('extra:drink');
    expect(await upsert(ref, [ticket(1), extra('drink', 4)])).toEqual(fromV3(await b.request('PATCH', `/carts/${v3.cartId}/items/${drink}`, { body: { quantity: 4 } })));
    expect(await upsert(ref, [ticket(1), extra('drink', 11)])).toEqual(fromV3(await b.request('PATCH', `/carts/${v3.cartId}/items/${drink}`, { body: { quantity: 11 } })));
  });

  it('§9.1 Apply discount: applyPromotion = POST /carts/{cartId}/vouchers, refusals included', async () => {
    const ref = fresh();
    const v3 = shopper();
    await upsert(ref, [ticket(2)]);
    await v3.create([v3Ticket(2)]);
    for (const code of ['FIVEOFF', 'SUMMER24', 'NOSUCHCODE', 'TEMPEST20', 'welcome10']) {
      expect(await call('PATCH', `/baskets/${ref}/applyPromotion`, { code }), code).toEqual(
        fromV3(await b.request('POST', `/carts/${v3.cartId}/vouchers`, { body: { code } })),
      );
    }
    const gift = fresh();
    const v3Gift = shopper();
    await upsert(gift, [{ productId: 'gift-card', aggregateReference: 'gift-card:gift-50', quantity: 1 }]);
    await v3Gift.create([{ occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId: 'gift-50', quantity: 1 }]);
    expect(await call('PATCH', `/baskets/${gift}/applyPromotion`, { code: 'WELCOME10' })).toEqual(
      fromV3(await b.request('POST', `/carts/${v3Gift.cartId}/vouchers`, { body: { code: 'WELCOME10' } })),
    );
  });

  it('§9.1 Remove item: DELETE a reservation = DELETE /carts/{cartId}/items/{itemId}; tickets cannot be removed either way', async () => {
    const ref = fresh();
    const v3 = shopper();
    const basket = await v1<{ data: Basket }>(a, channel, 'PATCH', '/baskets', { body: { reference: ref, reservations: [ticket(1), extra('parking', 2)] } });
    await v3.create([v3Ticket(1)], [{ extraId: 'parking', quantity: 2 }]);
    const [admission, parking] = basket.body.data.reservations;
    const v3Admission = await v3.lineId('standing:standing-adult');
    expect(await call('DELETE', `/baskets/${ref}/reservations/${admission?.reservationId}`)).toEqual(fromV3(await b.request('DELETE', `/carts/${v3.cartId}/items/${v3Admission}`)));
    const v3Parking = await v3.lineId('extra:parking');
    expect(await call('DELETE', `/baskets/${ref}/reservations/${parking?.reservationId}`)).toEqual(fromV3(await b.request('DELETE', `/carts/${v3.cartId}/items/${v3Parking}`)));
    expect(await call('DELETE', `/baskets/${ref}/reservations/${parking?.reservationId}`)).toEqual(fromV3(await b.request('DELETE', `/carts/${v3.cartId}/items/${v3Parking}`)));
    await sameHolds(CONCERT);
  });

  it('§9.1 Empty: clear = DELETE /carts/{cartId}; the emptied basket answers 404 where v3 answers 410', async () => {
    const ref = fresh();
    const v3 = shopper();
    await upsert(ref, [ticket(5)]);
    await v3.create([v3Ticket(5)]);
    expect(await call('PATCH', `/baskets/${ref}/clear`)).toEqual(fromV3(await b.request('DELETE', `/carts/${v3.cartId}`)));
    await sameHolds(CONCERT);
    expect(await call('GET', `/baskets/${ref}`)).toEqual(await v3.read());
    expect(await call('PATCH', `/baskets/${ref}/applyPromotion`, { code: 'WELCOME10' })).toEqual(
      fromV3(await b.request('POST', `/carts/${v3.cartId}/vouchers`, { body: { code: 'WELCOME10' } })),
    );
  });

  it('§9.1 Auth: a wrong checksum is 401 INVALID_API_KEY as a wrong key is, and changes nothing either way', async () => {
    const body = { reference: fresh(), reservations: [ticket(1)] };
    const wrong = await v1<V1Error>(a, channel, 'PATCH', '/baskets', { body, checksum: 'f'.repeat(64) });
    const v3 = await b.request<ErrorEnvelope>('POST', '/carts', { body: { items: [v3Ticket(1)] }, key: 'kassa_wrong' });
    expect([wrong.status, v3.status]).toEqual([401, 401]);
    expect(wrong.body.errorCode).toBe(v3.body.error.code);
    expect(wrong.body.errorCode).toBe('INVALID_API_KEY');
    expect(wrong.body.message).toMatch(/checksum/);
    await sameHolds(CONCERT);
  });

  it('§9.2 productId = occurrenceId: the other date, an off-sale one, an unknown one, two at once', async () => {
    const cases: [ReservationRequest[], object[]][] = [
      [[ticket(2, 'standing-adult', 'brass-2027-03-13')], [v3Ticket(2, 'standing-adult', 'brass-2027-03-13')]],
      [[{ productId: 'tempest-2027-04-16', aggregateReference: 'A1:stalls-full', quantity: 1 }], [{ occurrenceId: 'tempest-2027-04-16', inventoryItemId: 'A1', priceOptionId: 'stalls-full', quantity: 1 }]],
      [[ticket(1, 'standing-adult', 'no-such-date')], [v3Ticket(1, 'standing-adult', 'no-such-date')]],
      [[ticket(1), ticket(1, 'standing-adult', 'brass-2027-03-13')], [v3Ticket(1), v3Ticket(1, 'standing-adult', 'brass-2027-03-13')]],
    ];
    for (const [reservations, items] of cases) expect(await upsert(fresh(), reservations), JSON.stringify(items)).toEqual((await shopper().create(items))[0]);
    await sameHolds(CONCERT, 'brass-2027-03-13', 'tempest-2027-04-16');
  });

  it('§9.2 aggregateReference = inventoryItemId + priceOptionId: seats, gift cards, a wrong option, an unknown item, an unknown extra', async () => {
    const seat = (id: string, option = 'stalls-full') => ({ productId: 'tempest-2027-04-02', aggregateReference: `${id}:${option}`, quantity: 1 });
    const v3Seat = (id: string, option = 'stalls-full') => ({ occurrenceId: 'tempest-2027-04-02', inventoryItemId: id, priceOptionId: option, quantity: 1 });
    const cases: [ReservationRequest[], object[], object[]][] = [
      [[seat('B1'), seat('B2', 'stalls-concession')], [v3Seat('B1'), v3Seat('B2', 'stalls-concession')], []],
      [[seat('B1')], [v3Seat('B1')], []], // already held by the first case
      [[seat('P1', 'stalls-full')], [v3Seat('P1', 'stalls-full')], []], // option of another area
      [[seat('Z99')], [v3Seat('Z99')], []],
      [[{ productId: 'gift-card', aggregateReference: 'gift-card:gift-100', quantity: 1 }], [{ occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId: 'gift-100', quantity: 1 }], []],
      [[ticket(1), extra('caviar', 1)], [v3Ticket(1)], [{ extraId: 'caviar', quantity: 1 }]],
    ];
    for (const [reservations, items, extras] of cases) {
      expect(await upsert(fresh(), reservations), JSON.stringify(items)).toEqual((await shopper().create(items, extras))[0]);
    }
    await sameHolds(CONCERT, 'tempest-2027-04-02', 'gift-card');
  });

  it('§9.2 quantity = quantity: more than is left, a seat twice, two gift cards, a gift card with tickets', async () => {
    const cases: [ReservationRequest[], object[]][] = [
      [[ticket(13, 'balcony-adult')], [v3Ticket(13, 'balcony-adult')]],
      [[{ productId: 'tempest-2027-04-02', aggregateReference: 'C1:stalls-full', quantity: 2 }], [{ occurrenceId: 'tempest-2027-04-02', inventoryItemId: 'C1', priceOptionId: 'stalls-full', quantity: 2 }]],
      [[{ productId: 'gift-card', aggregateReference: 'gift-card:gift-25', quantity: 2 }], [{ occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId: 'gift-25', quantity: 2 }]],
      [
        [
          { productId: 'gift-card', aggregateReference: 'gift-card:gift-25', quantity: 1 },
          { productId: 'gift-card', aggregateReference: 'gift-card:gift-50', quantity: 1 },
        ],
        [
          { occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId: 'gift-25', quantity: 1 },
          { occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId: 'gift-50', quantity: 1 },
        ],
      ],
    ];
    for (const [reservations, items] of cases) expect(await upsert(fresh(), reservations), JSON.stringify(items)).toEqual((await shopper().create(items))[0]);
    await sameHolds(CONCERT, 'tempest-2027-04-02', 'gift-card');
  });

  it('§9.2 money {value, currency, decimalPlaces} = {amount, currency}, and no expiry in v1 where v3 has expiresAt', async () => {
    const ref = fresh();
    const basket = await v1<{ data: Basket }>(a, channel, 'PATCH', '/baskets', { body: { reference: ref, reservations: [ticket(3, 'standing-student')] } });
    const cart = await b.request<{ data: Cart }>('POST', '/carts', { body: { items: [v3Ticket(3, 'standing-student')] } });
    expect(basket.body.data.total).toEqual({ value: cart.body.data.total.amount, currency: cart.body.data.total.currency, decimalPlaces: 2 });
    expect(basket.body.data.reservations[0]?.price).toEqual({ value: 2900, currency: 'EUR', decimalPlaces: 2 });
    expect(Object.keys(basket.body.data).sort()).toEqual(['cartId', 'promotions', 'reference', 'reservations', 'total']);
    expect(cart.body.data.expiresAt).toMatch(/Z$/);
  });
});

describe('random baskets through v1 say what the v3 cart behind them says (property)', () => {
  let engine: TestEngine;
  let channel: Channel;
  beforeAll(async () => {
    engine = await startTestEngine();
    channel = await createChannel(engine);
  });
  afterAll(() => engine.close());

  const reservation = fc.oneof(
    fc.record({ option: fc.constantFrom('standing-adult', 'standing-student', 'balcony-adult'), quantity: fc.integer({ min: 1, max: 2 }) }).map(({ option, quantity }) => ticket(quantity, option)),
    fc.record({ id: fc.constantFrom('parking', 'programme', 'drink', 'tshirt'), quantity: fc.integer({ min: 1, max: 2 }) }).map(({ id, quantity }) => extra(id, quantity)),
  );

  it('each answer maps back onto the v3 cart: lines, prices, totals, promotions; each refusal leaves the basket as it was', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(reservation, { minLength: 1, maxLength: 6 }), fc.array(reservation, { minLength: 1, maxLength: 6 }), fc.boolean(), async (first, second, promote) => {
        const reference = `prop-${(n += 1)}`;
        const send = (reservations: ReservationRequest[]) => v1<{ data: Basket } | V1Error>(engine, channel, 'PATCH', '/baskets', { body: { reference, reservations } });
        const answers = [await send(first)];
        if (promote) answers.push(await v1(engine, channel, 'PATCH', `/baskets/${reference}/applyPromotion`, { body: { code: 'WELCOME10' } }));
        answers.push(await send(second));
        const read = await v1<{ data: Basket } | V1Error>(engine, channel, 'GET', `/baskets/${reference}`);
        expect(answers.every((answer) => answer.status < 500)).toBe(true);
        if (read.status !== 200) return;
        const basket = (read.body as { data: Basket }).data;
        const cart = fromV3(await engine.request('GET', `/carts/${basket.cartId}`));
        expect(fromV1(read)).toEqual(cart);
        // the basket holds what the last accepted request asked for, extras summed per extra
        const last = [...answers].reverse().find((answer) => answer.status === 200 && 'data' in (answer.body as object));
        expect(fromV1(read)).toEqual(last && fromV1(last));
        await v1(engine, channel, 'PATCH', `/baskets/${reference}/clear`);
      }),
      { numRuns: 40 },
    );
  });
});
