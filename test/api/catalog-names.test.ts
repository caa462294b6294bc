import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../engine/catalog/demo';
import type { CatalogDocument, EventView, InventoryView, LocationView } from '../../engine/contract/catalog';
import type { Order } from '../../engine/contract/order';
import { smallCatalog } from '../fixtures/small-catalog';
import { errorOf } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';

/**
 * Translated catalog names and venue time zones (issue #14): the document's `name` may be a string or
 * { en, de, fr }; the read endpoints answer one string in the Accept-Language, GET /catalog every
 * translation; a location's IANA `timeZone` is listed and reaches the orders.
 */

const lang = (language: string) => ({ headers: { 'accept-language': language } });

describe('translated catalog names', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  const events = async (language?: string) => {
    const response = await engine.request<{ data: EventView[] }>('GET', '/events', language === undefined ? {} : lang(language));
    expect(response.status).toBe(200);
    return response.body.data.map((event) => event.name);
  };

  it('GET /events answers the names in the Accept-Language; English without one, and for a language the catalog lacks', async () => {
    expect(await events('de')).toEqual(['Midnight Brass — live im Konzert', 'Der Sturm', 'Stadthalle-Geschenkkarte']);
    expect(await events('fr-FR,fr;q=0.9')).toEqual(['Midnight Brass — en concert', 'La Tempête', 'Carte cadeau Stadthalle']);
    expect(await events()).toEqual(['Midnight Brass — Live in Concert', 'The Tempest', 'Stadthalle Gift Card']);
    expect(await events('es')).toEqual(['Midnight Brass — Live in Concert', 'The Tempest', 'Stadthalle Gift Card']);
  });

  it('the inventory names its areas, price options and extras in German; ids, prices and availability do not change', async () => {
    const [de, en] = await Promise.all(
      ['de', 'en'].map(async (language) => (await engine.request<{ data: InventoryView }>('GET', '/occurrences/brass-2027-03-12/inventory', lang(language))).body.data),
    );
    expect(de?.areas.map((area) => area.name)).toEqual(['Stehplatz', 'Balkon']);
    expect(de?.areas[0]?.priceOptions.map((option) => option.name)).toEqual(['Erwachsene', 'Studierende']);
    expect(de?.extras.map((extra) => extra.name)).toEqual(['Parken', 'Programmheft', 'Getränkegutschein', 'Tour-T-Shirt']);
    const shape = (view: InventoryView | undefined) => JSON.stringify(view, (key, value: unknown) => (key === 'name' ? undefined : value));
    expect(shape(de)).toBe(shape(en));
  });

  it('GET /locations lists the venue with its IANA time zone', async () => {
    const response = await engine.request<{ data: LocationView[] }>('GET', '/locations', lang('de'));
    expect(response.body.data).toEqual([expect.objectContaining({ id: 'stadthalle', name: 'Stadthalle am Fluss', timeZone: 'Europe/Berlin' })]);
  });

  it('GET /catalog gives every translation and the time zone; importing it back changes nothing', async () => {
    const exported = await engine.request<{ data: CatalogDocument }>('GET', '/catalog');
    expect(exported.status).toBe(200);
    const doc = exported.body.data;
    expect(doc.locations[0]).toMatchObject({ timeZone: 'Europe/Berlin' });
    expect(doc.events[1]?.name).toEqual({ en: 'The Tempest', de: 'Der Sturm', fr: 'La Tempête' });
    expect(doc.events[0]?.extras?.[0]?.name).toEqual({ en: 'Parking', de: 'Parken', fr: 'Parking' });
    expect(doc.events[0]?.occurrences[0]?.areas[0]?.priceOptions[1]?.name).toEqual({ en: 'Student', de: 'Studierende', fr: 'Étudiant' });
    expect(doc.locations[0]?.name).toBe('Stadthalle am Fluss'); // a plain string stays a plain string
    const demo = JSON.parse(JSON.stringify(demoCatalog())) as CatalogDocument;
    expect([doc.locations, doc.events]).toEqual([demo.locations, demo.events]); // names and zones as the demo document has them
    expect((await engine.request('PUT', '/catalog', { body: doc })).status).toBe(200);
    expect((await engine.request<{ data: CatalogDocument }>('GET', '/catalog')).body.data).toEqual(doc);
  });

  it('an order names its venue with the time zone', async () => {
    const cart = await engine.request<{ data: { id: string; total: { amount: number; currency: string } } }>('POST', '/carts', {
      body: { items: [{ occurrenceId: 'tempest-2027-04-09', inventoryItemId: 'A1', priceOptionId: 'stalls-full', quantity: 1 }] },
    });
    expect(cart.status).toBe(201);
    const order = await engine.request<{ data: Order }>('POST', '/orders', {
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } },
    });
    expect(order.status).toBe(201);
    expect(order.body.data.event).toMatchObject({ occurrenceId: 'tempest-2027-04-09', location: { id: 'stadthalle', name: 'Stadthalle am Fluss', timeZone: 'Europe/Berlin' } });
    expect(order.body.data.tickets[0]).toMatchObject({ area: 'Stalls', seat: 'Row A, Seat 1' });
  });
});

describe('importing names and time zones', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine({ demo: false });
  });
  afterAll(() => engine.close());

  const put = (doc: unknown) => engine.request('PUT', '/catalog', { body: doc });

  it('a name given only in German is the default for every language; a time zone may be left out', async () => {
    const doc = smallCatalog();
    const event = doc.events[0];
    if (!event) throw new Error('fixture without an event');
    event.name = { de: 'Kleines Konzert' };
    expect((await put(doc)).status).toBe(200);
    for (const language of ['en', 'de', 'fr']) {
      const listed = await engine.request<{ data: EventView[] }>('GET', '/events', lang(language));
      expect(listed.body.data[0]?.name).toBe('Kleines Konzert');
    }
    const locations = await engine.request<{ data: LocationView[] }>('GET', '/locations');
    expect(locations.body.data[0]).not.toHaveProperty('timeZone');
  });

  it('refuses a time zone the IANA database does not know, and an empty translation object, losing nothing', async () => {
    const before = await engine.request('GET', '/catalog');
    const badZone = smallCatalog();
    const location = badZone.locations[0];
    if (!location) throw new Error('fixture without a location');
    location.timeZone = 'Mars/Olympus_Mons';
    const zone = errorOf(await put(badZone), 400, 'INVALID_FIELD_VALUE');
    expect(zone.param).toBe('locations[0].timeZone');

    const empty = JSON.parse(JSON.stringify(smallCatalog())) as { events: { name: unknown }[] };
    const first = empty.events[0];
    if (!first) throw new Error('fixture without an event');
    first.name = {};
    const refused = await put(empty);
    expect(refused.status).toBe(400);
    const unknownLanguage = JSON.parse(JSON.stringify(smallCatalog())) as { events: { name: unknown }[] };
    const second = unknownLanguage.events[0];
    if (!second) throw new Error('fixture without an event');
    second.name = { en: 'Gig', xx: 'Gig' };
    expect((await put(unknownLanguage)).status).toBe(400);
    expect((await engine.request('GET', '/catalog')).body).toEqual(before.body);
  });
});
