import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../engine/catalog/demo';
import type { CatalogDocument } from '../../engine/contract/catalog';
import { redactUrl } from '../../engine/http/log-redaction';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, withStore, type TestEngine } from '../helpers/engine';
import { card, challengeOf, checkout, expectError, listOrders, orderOf } from '../helpers/orders';

/**
 * Secrets and scopes (issue #12): voucher codes in GET /catalog only for the keys that need them; ticket codes
 * and challenge references never in the log. Sane exchange rates: an absurd rate is refused on import, and
 * one already stored makes a currency unavailable (503), never an internal error.
 */

describe('GET /catalog and voucher codes', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  const catalogFor = async (key: string) => {
    const response = await engine.request<{ data: CatalogDocument }>('GET', '/catalog', { key });
    expect(response.status).toBe(200);
    return response.body.data;
  };

  it('a catalog:read key alone (a kiosk\'s) gets the document without vouchers', async () => {
    const doc = await catalogFor(engine.keys.catalogRead);
    expect(doc.vouchers).toBeUndefined();
    expect(JSON.stringify(doc)).not.toContain('WELCOME10');
    expect(doc.events.length).toBeGreaterThan(0);
  });

  it('the UI key\'s scopes (a till) do not read them either', async () => {
    const till = await engine.createKey(['catalog:read', 'carts:write', 'orders:read', 'orders:write', 'sync']);
    expect((await catalogFor(till)).vouchers).toBeUndefined();
  });

  it('catalog:write, admin and a terminal\'s sync key (orders:import) get every code', async () => {
    const writer = await engine.createKey(['catalog:read', 'catalog:write']);
    const syncKey = await engine.createKey(['catalog:read', 'orders:import']);
    for (const key of [writer, engine.keys.admin, syncKey]) {
      const codes = ((await catalogFor(key)).vouchers ?? []).map((voucher) => voucher.code);
      expect(codes).toContain('WELCOME10');
      expect(codes).toContain('LUCKY50');
    }
  });
});

describe('the log never holds ticket codes or challenge references', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('GET /orders?ticketCode= and the challenge page are logged with those values redacted', async () => {
    const paid = await createCart(engine, [concert(1)]);
    const order = orderOf(await checkout(engine, paid.id, paid.total, card()));
    const code = order.tickets[0]?.code ?? '';
    expect((await listOrders(engine, `?ticketCode=${code}`)).status).toBe(200);

    const cart = await createCart(engine, [concert(1)]);
    const { reference, challengeUrl } = challengeOf(await checkout(engine, cart.id, cart.total, card('tok_3ds')));
    expect((await fetch(challengeUrl)).status).toBe(200);

    const logs = engine.logs();
    expect(logs).toContain('/api/v3/orders?ticketCode=[redacted]');
    expect(logs).toContain('/psp/challenges/[redacted]');
    expect(logs).not.toContain(code);
    expect(logs).not.toContain(reference);
  });

  it('redactUrl keeps the rest of the URL as it was', () => {
    expect(redactUrl('/api/v3/orders?limit=5&ticketCode=ABC&cursor=x')).toBe('/api/v3/orders?limit=5&ticketCode=[redacted]&cursor=x');
    expect(redactUrl('/psp/challenges/chl_123?x=1')).toBe('/psp/challenges/[redacted]?x=1');
    expect(redactUrl('/api/v3/events')).toBe('/api/v3/events');
  });
});

describe('exchange rates have sane bounds', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  const withRate = (rate: string): CatalogDocument => {
    const doc = demoCatalog();
    return { ...doc, exchangeRates: (doc.exchangeRates ?? []).map((r) => (r.to === 'USD' ? { ...r, rate } : r)) };
  };

  it('an import with a rate of 10^12 (or one below a millionth) is 400 rate_out_of_range and changes nothing', async () => {
    // 10^12 has 13 digits: the schema refuses it before the rule does
    expectError(await engine.request('PUT', '/catalog', { body: withRate('1000000000000') }), 400, 'INVALID_FIELD_VALUE');
    for (const rate of ['100000000000', '1000000.000001', '0.0000009']) {
      const error = expectError(await engine.request('PUT', '/catalog', { body: withRate(rate) }), 400, 'INVALID_FIELD_VALUE');
      expect(error.param).toMatch(/^exchangeRates\[\d+\]\.rate$/);
      expect(error.details).toMatchObject({ reason: 'rate_out_of_range', min: '0.000001', max: '1000000' });
    }
    const inventory = await engine.request<{ data: { currency: string } }>('GET', '/occurrences/brass-2027-03-12/inventory?currency=USD');
    expect(inventory.status).toBe(200);
  });

  it('the bounds themselves are accepted', async () => {
    expect((await engine.request('PUT', '/catalog', { body: withRate('1000000') })).status).toBe(200);
    expect((await engine.request('PUT', '/catalog', { body: withRate('0.000001') })).status).toBe(200);
    expect((await engine.request('PUT', '/catalog', { body: withRate('1.0825') })).status).toBe(200);
  });

  it('an absurd rate already in the database makes the currency unavailable: 503 on reads, never 500', async () => {
    // written through the store as an engine without the bounds would have imported it (the store checks nothing)
    await withStore(engine, async (store) => {
      for await (const step of store.importCatalog(withRate('1000000000000'))) void step;
    });
    const inventory = await engine.request('GET', '/occurrences/brass-2027-03-12/inventory?currency=USD');
    expectError(inventory, 503, 'CURRENCY_TEMPORARILY_UNAVAILABLE');
    const base = await engine.request('GET', '/occurrences/brass-2027-03-12/inventory');
    expect(base.status).toBe(200);
  });

  it('a rate in bounds that converts a price past the largest amount is refused on import (400, naming the price), not met later as a 5xx', async () => {
    const doc = withRate('1000000');
    const pricey = {
      ...doc,
      events: doc.events.map((event) => ({
        ...event,
        occurrences: event.occurrences.map((occurrence) => ({
          ...occurrence,
          areas: occurrence.areas.map((area) => ({ ...area, priceOptions: area.priceOptions.map((option) => ({ ...option, price: { ...option.price, amount: 900_000_000 } })) })),
        })),
      })),
    };
    // issue #22: 900,000,000 × 1,000,000 passes the largest amount (10^12); the import says so instead of a 503 while selling
    const before = await engine.request('GET', '/catalog');
    const error = expectError(await engine.request('PUT', '/catalog', { body: pricey }), 400, 'INVALID_FIELD_VALUE');
    expect(error.param).toMatch(/^events\[\d+\]\.occurrences\[\d+\]\.areas\[\d+\]\.priceOptions\[\d+\]\.price\.amount$/);
    expect(error.details).toMatchObject({ reason: 'converted_price_out_of_range', currency: 'USD' });
    expect((await engine.request('GET', '/catalog')).body).toEqual(before.body);
  });
});
