import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../engine/catalog/demo';
import { BRASS_PICTURE, TEMPEST_PICTURE, VENUE_BANNER } from '../../engine/catalog/demo-images';
import type { CatalogDocument } from '../../engine/contract/catalog';
import { SMALL, smallCatalog } from '../fixtures/small-catalog';
import { available, cartOf, concert, createCart, errorOf, seat, type InventoryBody } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';

/** The catalog side (contract §2): reads, PUT /catalog, and how an engine starts with or without a catalog. */

const DEMO_CURRENCIES = ['EUR', 'USD', 'GBP', 'JPY', 'KWD', 'CHF'];

interface EventsBody {
  data: { id: string; name: string; locationId: string; kind: string; occurrences: { id: string; startsAt: string; onSale: boolean }[] }[];
}
interface LocationsBody {
  data: { id: string; name: string; availableCurrencies: string[]; timeZone?: string }[];
}

/** The element at `index`, failing the test (not the type checker) when it is missing. */
function at<T>(list: readonly T[] | undefined, index: number): T {
  const value = list?.[index];
  if (value === undefined) throw new Error(`no element ${index}`);
  return value;
}

async function inventory(engine: TestEngine, occurrenceId: string, currency?: string): Promise<InventoryBody['data']> {
  const response = await engine.request('GET', `/occurrences/${occurrenceId}/inventory${currency === undefined ? '' : `?currency=${currency}`}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as InventoryBody).data;
}

const optionPrices = (data: InventoryBody['data']) =>
  Object.fromEntries(data.areas.flatMap((area) => area.priceOptions.map((option) => [option.id, option.price])));
const extraPrices = (data: InventoryBody['data']) => Object.fromEntries(data.extras.map((extra) => [extra.id, extra.price]));

describe('catalog reads', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('GET /events lists the demo events with their occurrences', async () => {
    const response = await engine.request('GET', '/events');
    expect(response.status).toBe(200);
    expect((response.body as EventsBody).data).toEqual([
      {
        id: 'midnight-brass',
        name: 'Midnight Brass — Live in Concert',
        locationId: 'stadthalle',
        kind: 'ticket',
        image: BRASS_PICTURE,
        occurrences: [
          { id: 'brass-2027-03-12', startsAt: '2027-03-12T19:30:00Z', onSale: true },
          { id: 'brass-2027-03-13', startsAt: '2027-03-13T19:30:00Z', onSale: true },
        ],
      },
      {
        id: 'the-tempest',
        name: 'The Tempest',
        locationId: 'stadthalle',
        kind: 'ticket',
        image: TEMPEST_PICTURE,
        occurrences: [
          { id: 'tempest-2027-04-02', startsAt: '2027-04-02T18:00:00Z', onSale: true },
          { id: 'tempest-2027-04-09', startsAt: '2027-04-09T18:00:00Z', onSale: true },
          { id: 'tempest-2027-04-16', startsAt: '2027-04-16T18:00:00Z', onSale: false },
        ],
      },
      {
        id: 'gift-card',
        name: 'Stadthalle Gift Card',
        locationId: 'stadthalle',
        kind: 'giftCard',
        occurrences: [{ id: 'gift-card', startsAt: '2026-01-01T00:00:00Z', onSale: true }],
      },
    ]);
  });

  it('GET /locations lists availableCurrencies, base first', async () => {
    const response = await engine.request('GET', '/locations');
    expect(response.status).toBe(200);
    expect((response.body as LocationsBody).data).toEqual([
      { id: 'stadthalle', name: 'Stadthalle am Fluss', availableCurrencies: DEMO_CURRENCIES, timeZone: 'Europe/Berlin', banner: VENUE_BANNER },
    ]);
  });

  it('reads need catalog:read: that key works, a carts key answers 403 with requiredScope, no key 401', async () => {
    expect((await engine.request('GET', '/events', { key: engine.keys.catalogRead })).status).toBe(200);
    const error = errorOf(await engine.request('GET', '/locations', { key: engine.keys.carts }), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(error.details?.requiredScope).toBe('catalog:read');
    errorOf(await engine.request('GET', '/events', { key: null }), 401, 'INVALID_API_KEY');
  });

  it('GET /occurrences/{id}/inventory lists areas, price options, items with capacity and available, and extras in EUR', async () => {
    const data = await inventory(engine, 'brass-2027-03-12');
    expect(data).toMatchObject({ occurrenceId: 'brass-2027-03-12', eventId: 'midnight-brass', onSale: true, currency: 'EUR' });
    expect(data.areas.map((area) => area.id)).toEqual(['standing', 'balcony']);
    expect(optionPrices(data)).toEqual({
      'standing-adult': { amount: 3900, currency: 'EUR' },
      'standing-student': { amount: 2900, currency: 'EUR' },
      'balcony-adult': { amount: 4900, currency: 'EUR' },
    });
    expect(data.areas.flatMap((area) => area.inventoryItems.map((item) => [item.id, item.capacity, item.available]))).toEqual([
      ['standing', 40, 40],
      ['balcony', 12, 12],
    ]);
    expect(data.extras.map((extra) => [extra.id, extra.price.amount, extra.maxQuantity])).toEqual([
      ['parking', 800, 4],
      ['programme', 500, undefined],
      ['drink', 450, 10],
      ['tshirt', 2500, 5],
    ]);
  });

  it('the theatre lists one seat of capacity 1 per inventory item and no extras', async () => {
    const data = await inventory(engine, 'tempest-2027-04-16');
    expect(data.onSale).toBe(false);
    expect(data.extras).toEqual([]);
    const [stalls, circle] = data.areas;
    expect(stalls?.inventoryItems).toHaveLength(14 * 20);
    expect(circle?.inventoryItems).toHaveLength(6 * 16);
    expect(data.areas.every((area) => area.inventoryItems.every((item) => item.capacity === 1 && item.available === 1))).toBe(true);
  });

  it('available drops when a cart holds stock and comes back after DELETE', async () => {
    const cart = await createCart(engine, [concert(3, 'standing-student', 'brass-2027-03-13'), concert(2, 'standing-adult', 'brass-2027-03-13')]);
    expect(await available(engine, 'brass-2027-03-13', 'standing')).toBe(35);
    expect(await available(engine, 'brass-2027-03-13', 'balcony')).toBe(12);
    const seatCart = await createCart(engine, [seat('N20', 'stalls-full', 'tempest-2027-04-09')]);
    expect(await available(engine, 'tempest-2027-04-09', 'N20')).toBe(0);

    expect((await engine.request('DELETE', `/carts/${cart.id}`)).status).toBe(204);
    expect((await engine.request('DELETE', `/carts/${seatCart.id}`)).status).toBe(204);
    expect(await available(engine, 'brass-2027-03-13', 'standing')).toBe(40);
    expect(await available(engine, 'tempest-2027-04-09', 'N20')).toBe(1);
  });

  it('?currency=JPY prices with 0 decimals, each price converted once', async () => {
    const data = await inventory(engine, 'brass-2027-03-12', 'JPY');
    expect(data.currency).toBe('JPY');
    expect(optionPrices(data)).toEqual({
      'standing-adult': { amount: 6332, currency: 'JPY' }, // 3900 × 162.35 / 100 = 6331.65
      'standing-student': { amount: 4708, currency: 'JPY' }, // 2900 × 1.6235 = 4708.15
      'balcony-adult': { amount: 7955, currency: 'JPY' }, // 4900 × 1.6235 = 7955.15
    });
    expect(extraPrices(data)).toEqual({
      parking: { amount: 1299, currency: 'JPY' }, // 800 × 1.6235 = 1298.8
      programme: { amount: 812, currency: 'JPY' }, // 500 × 1.6235 = 811.75
      drink: { amount: 731, currency: 'JPY' }, // 450 × 1.6235 = 730.575
      tshirt: { amount: 4059, currency: 'JPY' }, // 2500 × 1.6235 = 4058.75
    });
  });

  it('?currency=KWD prices with 3 decimals', async () => {
    const data = await inventory(engine, 'brass-2027-03-12', 'KWD');
    expect(optionPrices(data)).toEqual({
      'standing-adult': { amount: 12952, currency: 'KWD' }, // 3900 × 0.3321 × 10 = 12951.9
      'standing-student': { amount: 9631, currency: 'KWD' }, // 2900 × 3.321 = 9630.9
      'balcony-adult': { amount: 16273, currency: 'KWD' }, // 4900 × 3.321 = 16272.9
    });
    expect(extraPrices(data).programme).toEqual({ amount: 1661, currency: 'KWD' }); // 500 × 3.321 = 1660.5 → half away from zero
  });

  it('?currency= answers the currency errors', async () => {
    errorOf(await engine.request('GET', '/occurrences/brass-2027-03-12/inventory?currency=CHF'), 503, 'CURRENCY_TEMPORARILY_UNAVAILABLE');
    const error = errorOf(await engine.request('GET', '/occurrences/brass-2027-03-12/inventory?currency=SEK'), 400, 'CURRENCY_NOT_SUPPORTED');
    expect(error.details?.supportedCurrencies).toEqual(DEMO_CURRENCIES);
    errorOf(await engine.request('GET', '/occurrences/brass-2027-03-12/inventory?currency=jpy'), 400, 'INVALID_FIELD_VALUE', 'currency');
  });

  it('an unknown occurrence answers 404 RESOURCE_NOT_FOUND', async () => {
    errorOf(await engine.request('GET', '/occurrences/no-such-date/inventory'), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('PUT /catalog', () => {
  let engine: TestEngine;
  const snapshot = async () => {
    const events = (await engine.request('GET', '/events')).body;
    const locations = (await engine.request('GET', '/locations')).body;
    const occurrences = ['brass-2027-03-12', 'brass-2027-03-13', 'tempest-2027-04-02', 'tempest-2027-04-09', 'tempest-2027-04-16', 'gift-card'];
    const inventories = await Promise.all(occurrences.map((id) => inventory(engine, id)));
    return { events, locations, inventories };
  };
  const put = (body: unknown, key?: string) => engine.request('PUT', '/catalog', { body, ...(key !== undefined && { key }) });

  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('needs catalog:write: carts and catalog:read keys answer 403 with details.requiredScope, no key 401', async () => {
    const before = await snapshot();
    const carts = errorOf(await put(demoCatalog(), engine.keys.carts), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(carts.details?.requiredScope).toBe('catalog:write');
    const reader = errorOf(await put(smallCatalog(), engine.keys.catalogRead), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(reader.details?.requiredScope).toBe('catalog:write');
    errorOf(await engine.request('PUT', '/catalog', { body: smallCatalog(), key: null }), 401, 'INVALID_API_KEY');
    expect(await snapshot()).toEqual(before);
  });

  it('a catalog:write key imports; the answer counts what the document holds', async () => {
    const response = await put(demoCatalog(), engine.keys.catalogWrite);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    // occurrences 2 + 3 + 1; inventory items: 2 × 2 (concert) + 3 × (14 × 20 + 6 × 16) (theatre) + 1 (gift card)
    expect((response.body as { data: unknown }).data).toEqual({ locations: 1, events: 3, occurrences: 6, inventoryItems: 4 + 3 * 376 + 1, vouchers: 5 });
  });

  it('importing the same document twice changes nothing', async () => {
    const before = await snapshot();
    expect((await put(demoCatalog())).status).toBe(200);
    const once = await snapshot();
    expect(once).toEqual(before);
    expect((await put(demoCatalog())).status).toBe(200);
    expect(await snapshot()).toEqual(once);
  });

  it('a re-import keeps held quantities and the carts holding them', async () => {
    const cart = await createCart(engine, [concert(2), concert(1, 'balcony-adult')]);
    const seatCart = await createCart(engine, [seat('A1')]);
    expect((await put(demoCatalog())).status).toBe(200);
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(38);
    expect(await available(engine, 'brass-2027-03-12', 'balcony')).toBe(11);
    expect(await available(engine, 'tempest-2027-04-02', 'A1')).toBe(0);
    expect(cartOf(await engine.request('GET', `/carts/${cart.id}`))).toEqual(cart);
    expect(cartOf(await engine.request('GET', `/carts/${seatCart.id}`))).toEqual(seatCart);
    expect((await engine.request('DELETE', `/carts/${cart.id}`)).status).toBe(204);
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(40);
  });

  describe('referential errors answer 400 INVALID_FIELD_VALUE with a param path and import nothing', () => {
    const broken: [string, (doc: CatalogDocument) => void, string][] = [
      ['an unknown locationId', (doc) => void (at(doc.events, 0).locationId = 'nowhere'), 'events[0].locationId'],
      [
        'a price in a sold but non-base currency',
        (doc) => void (at(at(at(at(doc.events, 0).occurrences, 0).areas, 0).priceOptions, 0).price = { amount: 1000, currency: 'USD' }),
        'events[0].occurrences[0].areas[0].priceOptions[0].price.currency',
      ],
      [
        'an extra priced in a non-base currency',
        (doc) => void (at(at(doc.events, 0).extras, 0).price = { amount: 200, currency: 'GBP' }),
        'events[0].extras[0].price.currency',
      ],
      [
        'an assigned seat with capacity 2',
        (doc) => {
          const area = at(at(at(doc.events, 0).occurrences, 0).areas, 0);
          area.seating = 'assigned';
          area.inventoryItems = [{ id: 'S1', capacity: 1 }, { id: 'S2', capacity: 2 }];
        },
        'events[0].occurrences[0].areas[0].inventoryItems[1].capacity',
      ],
      ['a duplicate event id', (doc) => void doc.events.push(structuredClone(at(doc.events, 0))), 'events[1].id'],
      [
        'a duplicate occurrence id',
        (doc) => {
          const event = at(doc.events, 0);
          event.occurrences.push(structuredClone(at(event.occurrences, 0)));
        },
        'events[0].occurrences[1].id',
      ],
      [
        'a duplicate inventory item id',
        (doc) => {
          const area = at(at(at(doc.events, 0).occurrences, 0).areas, 0);
          area.inventoryItems.push({ id: SMALL.inventoryItemId, capacity: 3 });
        },
        'events[0].occurrences[0].areas[0].inventoryItems[1].id',
      ],
      ['a duplicate location id', (doc) => void doc.locations.push(structuredClone(at(doc.locations, 0))), 'locations[1].id'],
    ];

    for (const [what, breakIt, param] of broken) {
      it(what, async () => {
        const before = await snapshot();
        const doc = smallCatalog();
        breakIt(doc);
        const error = errorOf(await put(doc), 400, 'INVALID_FIELD_VALUE', param);
        expect(error.details).toBeDefined();
        expect(await snapshot()).toEqual(before);
        // the demo catalog is still the one on sale
        errorOf(await engine.request('GET', `/occurrences/${SMALL.occurrenceId}/inventory`), 404, 'RESOURCE_NOT_FOUND');
      });
    }

    it('a document that fails the schema names the field too', async () => {
      const doc = { ...smallCatalog(), events: [{ ...at(smallCatalog().events, 0), kind: 'concert' }] };
      errorOf(await put(doc), 400, 'INVALID_FIELD_VALUE', 'events[0].kind');
      const noLocations: Record<string, unknown> = { ...smallCatalog() };
      delete noLocations.locations;
      errorOf(await put(noLocations), 400, 'MISSING_REQUIRED_FIELD', 'locations');
    });
  });
});

describe('PUT /catalog: a price change', () => {
  let engine: TestEngine;
  const repriced = () => {
    const doc = demoCatalog();
    const standing = at(at(at(doc.events, 0).occurrences, 0).areas, 0);
    at(standing.priceOptions, 0).price = { amount: 4200, currency: 'EUR' }; // standing-adult of brass-2027-03-12
    return doc;
  };
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('applies to a new cart and to the inventory listing', async () => {
    expect((await engine.request('PUT', '/catalog', { body: repriced() })).status).toBe(200);
    const cart = await createCart(engine, [concert(2)]);
    expect(cart.items[0]?.unitPrice).toEqual({ amount: 4200, currency: 'EUR' });
    expect(cart.total).toEqual({ amount: 8400, currency: 'EUR' });
    const usd = await createCart(engine, [concert(1)], 'USD');
    expect(usd.total).toEqual({ amount: 4547, currency: 'USD' }); // 4200 × 1.0825 = 4546.5 → 4547
    expect(optionPrices(await inventory(engine, 'brass-2027-03-12'))['standing-adult']).toEqual({ amount: 4200, currency: 'EUR' });
    // the other date keeps its price
    expect(optionPrices(await inventory(engine, 'brass-2027-03-13'))['standing-adult']).toEqual({ amount: 3900, currency: 'EUR' });
  });

  it('a cart held before the change keeps the unit price it was created with (engine choice: unit price fixed per line)', async () => {
    expect((await engine.request('PUT', '/catalog', { body: demoCatalog() })).status).toBe(200);
    const held = await createCart(engine, [concert(1)]);
    expect(held.total).toEqual({ amount: 3900, currency: 'EUR' });
    expect((await engine.request('PUT', '/catalog', { body: repriced() })).status).toBe(200);
    expect(cartOf(await engine.request('GET', `/carts/${held.id}`)).total).toEqual({ amount: 3900, currency: 'EUR' });
    const fresh = await createCart(engine, [concert(1)]);
    expect(fresh.total).toEqual({ amount: 4200, currency: 'EUR' });
  });
});

describe('an engine started with catalogFile', () => {
  let engine: TestEngine;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kassa-catalog-'));
    const file = join(dir, 'catalog.json');
    writeFileSync(file, JSON.stringify(smallCatalog()));
    engine = await startTestEngine({ catalogFile: file });
  });
  afterAll(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sells that catalog and not the demo', async () => {
    const events = await engine.request('GET', '/events');
    expect(events.status).toBe(200);
    expect((events.body as EventsBody).data).toEqual([
      {
        id: SMALL.eventId,
        name: 'Small Gig',
        locationId: SMALL.locationId,
        kind: 'ticket',
        occurrences: [{ id: SMALL.occurrenceId, startsAt: '2027-05-01T20:00:00Z', onSale: true }],
      },
    ]);
    const locations = await engine.request('GET', '/locations');
    expect((locations.body as LocationsBody).data).toEqual([{ id: SMALL.locationId, name: 'Small Hall', availableCurrencies: ['EUR', 'USD'] }]);
    errorOf(await engine.request('GET', '/occurrences/brass-2027-03-12/inventory'), 404, 'RESOURCE_NOT_FOUND');
    expect(await available(engine, SMALL.occurrenceId, SMALL.inventoryItemId)).toBe(SMALL.capacity);
  });

  it('rounds half away from zero: 1000 → 1083 and 200 → 217 USD cents at 1.0825', async () => {
    const data = await inventory(engine, SMALL.occurrenceId, 'USD');
    expect(optionPrices(data)).toEqual({ [SMALL.priceOptionId]: { amount: 1083, currency: 'USD' } });
    expect(extraPrices(data)).toEqual({ [SMALL.extraId]: { amount: 217, currency: 'USD' } });
  });

  it('prices a USD cart per unit: 3 badges are 3 × 217 = 651, not 600 × 1.0825 = 649.5 → 650', async () => {
    const item = { occurrenceId: SMALL.occurrenceId, inventoryItemId: SMALL.inventoryItemId, priceOptionId: SMALL.priceOptionId, quantity: 2 };
    const cart = await createCart(engine, [item], 'USD');
    expect(cart.total).toEqual({ amount: 2166, currency: 'USD' }); // 2 × 1083
    const withBadges = cartOf(await engine.request('POST', `/carts/${cart.id}/items`, { body: { items: [{ extraId: SMALL.extraId, quantity: 3 }] } }));
    expect(withBadges.total).toEqual({ amount: 2166 + 651, currency: 'USD' });
    expect(await available(engine, SMALL.occurrenceId, SMALL.inventoryItemId)).toBe(SMALL.capacity - 2);
  });
});

describe('an engine started with demo: false', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine({ demo: false });
  });
  afterAll(() => engine.close());

  it('has an empty catalog', async () => {
    const events = await engine.request('GET', '/events');
    expect(events.status).toBe(200);
    expect(events.body).toEqual({ data: [] });
    const locations = await engine.request('GET', '/locations');
    expect(locations.status).toBe(200);
    expect(locations.body).toEqual({ data: [] });
    errorOf(await engine.request('GET', '/occurrences/brass-2027-03-12/inventory'), 404, 'RESOURCE_NOT_FOUND');
    errorOf(await engine.request('POST', '/carts', { body: { items: [concert(1)] } }), 400, 'INVALID_FIELD_VALUE', 'items[0].occurrenceId');
  });
});
