import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../engine/catalog/demo';
import { InventoryView, type AvailabilityView, type CatalogDocument } from '../../engine/contract/catalog';
import { replies } from '../../engine/contract/common';
import type { NameLanguage } from '../../engine/domain/names';
import { createSimulator } from '../../engine/checkout/payments/simulator';
import { loadMasterKey } from '../../engine/store/channel-repo';
import { openStore } from '../../engine/store/open';
import { occurrenceInventory } from '../../engine/catalog/catalog';
import { createContext } from '../../engine/shared/context';
import { concert, createCart, errorOf, seat } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { placeOrder } from '../helpers/orders';

/**
 * Seat maps at scale (issue #16): the inventory is stitched from a seat map prepared per catalog version, so
 * these tests pin that its bytes are what the response serializer made of the view before, that it follows
 * every catalog import, hold, sale and expiry, and the compact GET /occurrences/{id}/availability.
 */

type AvailabilityBody = { data: AvailabilityView };
const TEMPEST = 'tempest-2027-04-02';
const BRASS = 'brass-2027-03-12';

async function inventoryText(engine: TestEngine, occurrenceId: string, language: string, currency?: string): Promise<string> {
  const response = await fetch(`${engine.url}/api/v3/occurrences/${occurrenceId}/inventory${currency ? `?currency=${currency}` : ''}`, {
    headers: { 'x-svc-api-key': engine.keys.admin, 'accept-language': language },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return response.text();
}

async function availability(engine: TestEngine, occurrenceId: string, since?: string): Promise<AvailabilityView> {
  const response = await engine.request<AvailabilityBody>('GET', `/occurrences/${occurrenceId}/availability${since === undefined ? '' : `?since=${since}`}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

const itemOf = (view: InventoryView, id: string) => {
  const item = view.areas.flatMap((area) => area.inventoryItems).find((candidate) => candidate.id === id);
  if (!item) throw new Error(`no inventory item ${id}`);
  return item;
};
const changes = (view: AvailabilityView) => view.items.ids.map((id, k) => [id, view.items.available[k], view.items.held[k]]);

describe('the inventory answer is unchanged byte for byte', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('equals the schema serializer applied to the view, for seats and standing, per language and currency, with stock held', async () => {
    // and a hall of 5,000 seats, whose answer is streamed in pieces
    const doc = demoCatalog();
    const tempest = doc.events.find((event) => event.id === 'the-tempest');
    tempest?.occurrences.push({
      id: 'big-hall', startsAt: '2027-05-01T18:00:00Z', onSale: true,
      areas: [{ id: 'hall', name: { en: 'Hall', de: 'Saal' }, seating: 'assigned', priceOptions: [{ id: 'hall-full', name: 'Full', price: { amount: 1000, currency: 'EUR' } }],
        inventoryItems: Array.from({ length: 5000 }, (_, i) => ({ id: `H${i}`, ...(i % 3 > 0 && { label: `Seat "${i}"` }), capacity: 1 })) }],
    });
    expect((await engine.request('PUT', '/catalog', { body: doc })).status).toBe(200);
    await createCart(engine, [seat('H4001', 'hall-full', 'big-hall'), seat('H17', 'hall-full', 'big-hall')]);
    await createCart(engine, [seat('C12'), seat('C13')]);
    await createCart(engine, [concert(3)]);
    // The reference: the view as the use case builds it, through Fastify's own response serializer.
    const store = await openStore(engine.database, { dataDir: engine.dataDir, masterKey: loadMasterKey(engine.dataDir), groupCommit: false });
    const ctx = createContext(store, { holdSeconds: 900, now: Date.now, payments: createSimulator(store, { baseUrl: () => engine.url, now: Date.now }).provider });
    const reference = Fastify();
    reference.get<{ Querystring: { o: string; c?: string; l: NameLanguage } }>('/', { schema: { response: replies(200, InventoryView) } }, async (request) => ({
      data: await occurrenceInventory(ctx, request.query.o, request.query.c, request.query.l),
    }));
    try {
      for (const [occurrenceId, language, currency] of [[TEMPEST, 'en', undefined], [TEMPEST, 'de', 'USD'], [BRASS, 'fr', 'JPY'], [BRASS, 'en', 'EUR'], ['gift-card', 'de', undefined], ['big-hall', 'de', 'USD'], ['big-hall', 'en', undefined]] as const) {
        const expected = await reference.inject({ url: '/', query: { o: occurrenceId, l: language, ...(currency && { c: currency }) } });
        expect(expected.statusCode).toBe(200);
        expect(await inventoryText(engine, occurrenceId, language, currency)).toBe(expected.body);
      }
    } finally {
      await reference.close();
      await store.close();
    }
  });
});

describe('the prepared seat map follows the catalog and the stock', () => {
  let engine: TestEngine;
  let clock = Date.parse('2027-01-10T10:00:00Z');
  beforeEach(async () => {
    engine = await startTestEngine({ now: () => clock });
  });
  afterEach(() => engine.close());

  const inventory = async (occurrenceId: string) => JSON.parse(await inventoryText(engine, occurrenceId, 'en')) as { data: InventoryView };

  it('a catalog re-import changes labels, prices, names and seats in the next answer', async () => {
    const before = (await inventory(TEMPEST)).data;
    const doc: CatalogDocument = demoCatalog();
    const tempest = doc.events.flatMap((event) => event.occurrences).find((occurrence) => occurrence.id === TEMPEST);
    const stalls = tempest?.areas[0];
    if (!stalls) throw new Error('the demo has no stalls');
    stalls.name = 'Parkett (renamed)';
    const firstOption = stalls.priceOptions[0];
    if (firstOption) firstOption.price = { amount: firstOption.price.amount + 100, currency: firstOption.price.currency };
    stalls.inventoryItems = [...stalls.inventoryItems.slice(1), { id: 'Z-1', label: 'Row Z, seat 1', capacity: 1 }];
    expect((await engine.request('PUT', '/catalog', { body: doc })).status).toBe(200);

    const after = (await inventory(TEMPEST)).data;
    const [area] = after.areas;
    expect(area?.name).toBe('Parkett (renamed)');
    expect(area?.priceOptions[0]?.price.amount).toBe((before.areas[0]?.priceOptions[0]?.price.amount ?? 0) + 100);
    expect(area?.inventoryItems.map((item) => item.id)).toEqual(stalls.inventoryItems.map((item) => item.id));
    expect(itemOf(after, 'Z-1')).toEqual({ id: 'Z-1', label: 'Row Z, seat 1', capacity: 1, available: 1, held: 0 });
  });

  it('a hold, a sale and an expiry each show in the next answer and in the since form', async () => {
    const start = await availability(engine, TEMPEST);
    const held = await createCart(engine, [seat('C12')]);
    expect(itemOf((await inventory(TEMPEST)).data, 'C12')).toMatchObject({ available: 0, held: 1 });
    const afterHold = await availability(engine, TEMPEST, start.version);
    expect(afterHold.complete).toBe(false);
    expect(changes(afterHold)).toEqual([['C12', 0, 1]]);

    const sold = await createCart(engine, [seat('C13')]);
    await placeOrder(engine, sold.id, sold.total);
    expect(itemOf((await inventory(TEMPEST)).data, 'C13')).toMatchObject({ available: 0, held: 0 });
    const afterSale = await availability(engine, TEMPEST, afterHold.version);
    expect(changes(afterSale)).toEqual([['C13', 0, 0]]);

    // The hold of C12 times out at the shipped default (900 s); no request released it yet.
    clock = Date.parse(held.expiresAt) + 1;
    expect(itemOf((await inventory(TEMPEST)).data, 'C12')).toMatchObject({ available: 1, held: 0 });
    const afterExpiry = await availability(engine, TEMPEST, afterSale.version);
    expect(changes(afterExpiry)).toEqual([['C12', 1, 0]]);
    expect(changes(await availability(engine, TEMPEST, afterExpiry.version))).toEqual([]);
  });
});

describe('a prepared seat map reads only what changed', () => {
  let engine: TestEngine;
  let clock = Date.parse('2027-01-10T10:00:00Z');
  beforeAll(async () => {
    engine = await startTestEngine({ now: () => clock });
  });
  afterAll(() => engine.close());

  /** every seat of the hall as [available, held], from the inventory answer and from the compact form */
  const numbers = async () => {
    const inventory = JSON.parse(await inventoryText(engine, 'big-hall', 'en')) as { data: InventoryView };
    const fromInventory = Object.fromEntries(inventory.data.areas.flatMap((area) => area.inventoryItems).map((item) => [item.id, [item.available, item.held]]));
    const compact = await availability(engine, 'big-hall');
    expect(compact.complete).toBe(true);
    const fromCompact = Object.fromEntries(compact.items.ids.map((id, k) => [id, [compact.items.available[k], compact.items.held[k]]]));
    expect(fromInventory).toEqual(fromCompact);
    return fromInventory;
  };
  const hall = (ids: readonly number[]) => ids.map((i) => seat(`H${i}`, i < 1000 ? 'hall-full' : 'hall-right', 'big-hall'));

  it('a few changes (read in part) and many at once (read in full) leave every seat as the compact form says', async () => {
    // 2,000 seats in two areas with interleaved positions; an answer reads in full past max(64, 2,000 / 8) changes
    const doc = demoCatalog();
    const seats = (from: number) => Array.from({ length: 1000 }, (_, i) => ({ id: `H${from + i}`, capacity: 1 }));
    doc.events.find((event) => event.id === 'the-tempest')?.occurrences.push({
      id: 'big-hall', startsAt: '2027-05-01T18:00:00Z', onSale: true,
      areas: [
        { id: 'left', name: 'Left', seating: 'assigned', priceOptions: [{ id: 'hall-full', name: 'Full', price: { amount: 1000, currency: 'EUR' } }], inventoryItems: seats(0) },
        { id: 'right', name: 'Right', seating: 'assigned', priceOptions: [{ id: 'hall-right', name: 'Full', price: { amount: 1000, currency: 'EUR' } }], inventoryItems: seats(1000) },
      ],
    });
    expect((await engine.request('PUT', '/catalog', { body: doc })).status).toBe(200);
    expect(Object.values(await numbers()).every(([available, held]) => available === 1 && held === 0)).toBe(true);

    // a few: two carts, then one let go
    const a = await createCart(engine, hall([5, 1500]));
    const b = await createCart(engine, hall([6]));
    expect((await numbers()).H1500).toEqual([0, 1]);
    expect((await engine.request('DELETE', `/carts/${b.id}`)).status).toBe(204);
    const few = await numbers();
    expect([few.H5, few.H6, few.H1500]).toEqual([[0, 1], [1, 0], [0, 1]]);

    // many: 300 seats held in carts of 50, more changes than a read in part pays for
    const many = [];
    for (let c = 0; c < 6; c++) many.push(await createCart(engine, hall(Array.from({ length: 50 }, (_, i) => 100 + 50 * c + i))));
    const afterMany = await numbers();
    expect(Object.values(afterMany).filter(([, held]) => held === 1)).toHaveLength(302);

    // a sale, then every hold timing out at the shipped default (900 s) — released by the next read
    await placeOrder(engine, a.id, a.total);
    expect((await numbers()).H5).toEqual([0, 0]);
    clock += 901_000;
    const expired = await numbers();
    expect(Object.values(expired).filter(([, held]) => (held ?? 0) > 0)).toHaveLength(0);
    expect(Object.values(expired).filter(([available]) => available === 0)).toHaveLength(2);
    expect(many).toHaveLength(6);
  });
});

describe('GET /occurrences/{id}/availability', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('answers every item and the per-area sums, in the inventory\'s order', async () => {
    const cart = await createCart(engine, [concert(2)]);
    const full = await availability(engine, BRASS);
    const inventory = (await engine.request<{ data: InventoryView }>('GET', `/occurrences/${BRASS}/inventory`)).body.data;
    expect(full.complete).toBe(true);
    expect(full.version).toMatch(/^\d+\.\d+$/);
    expect(full.areas).toEqual(
      inventory.areas.map((area) => ({
        id: area.id,
        capacity: area.inventoryItems.reduce((n, item) => n + item.capacity, 0),
        available: area.inventoryItems.reduce((n, item) => n + item.available, 0),
        held: area.inventoryItems.reduce((n, item) => n + (item.held ?? 0), 0),
      })),
    );
    const items = inventory.areas.flatMap((area) => area.inventoryItems);
    expect(new Map(changes(full).map(([id, ...numbers]) => [id, numbers]))).toEqual(new Map(items.map((item) => [item.id, [item.available, item.held]])));
    expect(full.areas.reduce((n, area) => n + area.held, 0)).toBe(2);
    expect((await engine.request('DELETE', `/carts/${cart.id}`)).status).toBe(204);
  });

  it('with since: nothing when nothing changed; everything again after a catalog import; the token survives a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kassa-availability-'));
    let own = await startTestEngine({ dataDir });
    try {
      const first = await availability(own, TEMPEST);
      const quiet = await availability(own, TEMPEST, first.version);
      expect(quiet).toMatchObject({ complete: false, version: first.version, items: { ids: [], available: [], held: [] } });

      // a new engine process on the same database: the counters live there
      await own.close();
      own = await startTestEngine({ dataDir });
      await createCart(own, [seat('D1')]);
      expect(changes(await availability(own, TEMPEST, first.version))).toEqual([['D1', 0, 1]]);

      expect((await own.request('PUT', '/catalog', { body: demoCatalog() })).status).toBe(200);
      const afterImport = await availability(own, TEMPEST, first.version);
      expect(afterImport.complete).toBe(true);
      expect(Number(afterImport.version.split('.')[0])).toBe(Number(first.version.split('.')[0]) + 1);
      expect(afterImport.items.ids.length).toBe(afterImport.areas.reduce((n, area) => n + area.capacity, 0));
      // A token from ahead of this database (say, after a restore from backup) also gets everything.
      expect((await availability(own, TEMPEST, `${afterImport.version.split('.')[0]}.999999999`)).complete).toBe(true);
    } finally {
      await own.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('an unknown occurrence is 404; a malformed since or an unknown parameter is 400 naming it', async () => {
    errorOf(await engine.request('GET', '/occurrences/no-such-date/availability'), 404, 'RESOURCE_NOT_FOUND', 'occurrenceId');
    for (const since of ['abc', '1', '1.2.3', '-1.0', '1.x', `1.${'9'.repeat(16)}`]) {
      errorOf(await engine.request('GET', `/occurrences/${TEMPEST}/availability?since=${encodeURIComponent(since)}`), 400, 'INVALID_FIELD_VALUE', 'since');
    }
    const unknown = errorOf(await engine.request('GET', `/occurrences/${TEMPEST}/availability?from=1.1`), 400, 'INVALID_FIELD_VALUE');
    expect(JSON.stringify(unknown)).toContain('from');
  });

  it('needs catalog:read', async () => {
    errorOf(await engine.request('GET', `/occurrences/${TEMPEST}/availability`, { key: engine.keys.carts }), 403, 'INSUFFICIENT_PERMISSIONS');
    errorOf(await engine.request('GET', `/occurrences/${TEMPEST}/availability`, { key: null }), 401, 'INVALID_API_KEY');
    expect((await engine.request('GET', `/occurrences/${TEMPEST}/availability`, { key: engine.keys.catalogRead })).status).toBe(200);
  });
});
