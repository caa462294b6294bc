import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDocument } from '../../engine/contract/catalog';
import { demoCatalog } from '../../engine/catalog/demo';
import { cartOf, concert, seat, type Cart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { orderOf, type Order } from '../helpers/orders';

/**
 * Carts and orders answer their line names in the request's Accept-Language (issue #14): a catalog with
 * { en, de, fr } names gives a German kiosk German lines in the cart, the confirmation and the order read
 * back; ids, amounts and the order of lines stay the same in every language.
 */

const lang = (language: string) => ({ 'accept-language': language });

describe('cart and order lines in the request language', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  const readCart = async (cartId: string, language: string) => cartOf(await engine.request('GET', `/carts/${cartId}`, { headers: lang(language) }));
  /** everything but the names and labels, to compare answers across languages */
  const shape = (value: unknown) => JSON.stringify(value, (key, inner: unknown) => (key === 'name' || key === 'label' || key === 'area' ? undefined : inner));

  it('a cart created, extended and read in German names its lines, receipt lines, extras and voucher in German', async () => {
    const created = cartOf(await engine.request('POST', '/carts', { body: { items: [concert(2), concert(1, 'standing-student')] }, headers: lang('de-DE,de;q=0.9') }), 201);
    expect(created.items.map((item) => item.name)).toEqual(['Stehplatz — Erwachsene', 'Stehplatz — Studierende']);
    expect(created.receiptLines.map((line) => line.label)).toEqual(['2 × Stehplatz — Erwachsene', '1 × Stehplatz — Studierende']);
    expect(created.options.extras?.map((extra) => extra.name)).toEqual(['Parken', 'Programmheft', 'Getränkegutschein', 'Tour-T-Shirt']);

    cartOf(await engine.request('POST', `/carts/${created.id}/items`, { body: { items: [{ extraId: 'parking', quantity: 1 }] }, headers: lang('de') }));
    const withVoucher = cartOf(await engine.request('POST', `/carts/${created.id}/vouchers`, { body: { code: 'WELCOME10' }, headers: lang('de') }));
    expect(withVoucher.receiptLines.map((line) => line.label)).toEqual([
      '2 × Stehplatz — Erwachsene',
      '1 × Stehplatz — Studierende',
      '1 × Parken',
      'Rabattcode WELCOME10',
    ]);

    const [de, fr, en] = await Promise.all([readCart(created.id, 'de'), readCart(created.id, 'fr'), readCart(created.id, 'en')]);
    expect(fr.items.map((item) => item.name)).toEqual(['Debout — Adulte', 'Debout — Étudiant', 'Parking']);
    expect(fr.receiptLines.at(-1)?.label).toBe('Code promo WELCOME10');
    expect(en.items.map((item) => item.name)).toEqual(['Standing — Adult', 'Standing — Student', 'Parking']);
    expect(en.receiptLines.map((line) => line.label)).toEqual(['2 × Standing — Adult', '1 × Standing — Student', '1 × Parking', 'Voucher WELCOME10']);
    expect(shape(de)).toBe(shape(en));
    expect(shape(fr)).toBe(shape(en));
    // no Accept-Language: the catalog's default, as before
    const plain = cartOf(await engine.request('GET', `/carts/${created.id}`));
    expect(plain.items.map((item) => item.name)).toEqual(en.items.map((item) => item.name));
  });

  it('an order placed and read in German names its lines, event, venue and ticket areas in German; in English when read so', async () => {
    const cart = cartOf(await engine.request('POST', '/carts', { body: { items: [seat('B3')] }, headers: lang('de') }), 201);
    expect(cart.items[0]?.name).toBe('Parkett, Row B, Seat 3 — Normalpreis');
    const placed = orderOf(
      await engine.request('POST', '/orders', {
        body: { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'cash' } },
        headers: { ...lang('de'), 'idempotency-key': crypto.randomUUID() },
      }),
    );
    expect(placed.items[0]?.name).toBe('Parkett, Row B, Seat 3 — Normalpreis');
    expect(placed.receiptLines[0]?.label).toBe('1 × Parkett, Row B, Seat 3 — Normalpreis');

    const read = async (language: string) => {
      const response = await engine.request<{ data: Order & { event: { name: string; location: { name: string } } } }>('GET', `/orders/${placed.id}`, { headers: lang(language) });
      expect(response.status).toBe(200);
      return response.body.data;
    };
    const [de, en] = await Promise.all([read('de'), read('en')]);
    expect(de.items[0]?.name).toBe('Parkett, Row B, Seat 3 — Normalpreis');
    expect(de.event.name).toBe('Der Sturm');
    expect(de.tickets[0]).toMatchObject({ area: 'Parkett', seat: 'Row B, Seat 3' });
    expect(en.items[0]?.name).toBe('Stalls, Row B, Seat 3 — Full price');
    expect(en.receiptLines[0]?.label).toBe('1 × Stalls, Row B, Seat 3 — Full price');
    expect(en.event.name).toBe('The Tempest');
    expect(en.tickets[0]).toMatchObject({ area: 'Stalls' });
    expect(shape(de)).toBe(shape(en));

    const listed = await engine.request<{ data: Order[] }>('GET', '/orders?limit=1', { headers: lang('fr') });
    expect(listed.body.data[0]?.items[0]?.name).toBe('Orchestre, Row B, Seat 3 — Plein tarif');
    const byCode = await engine.request<{ data: Order[] }>('GET', `/orders?ticketCode=${placed.tickets[0]?.code ?? ''}`, { headers: lang('de') });
    expect(byCode.body.data[0]?.receiptLines[0]?.label).toBe('1 × Parkett, Row B, Seat 3 — Normalpreis');
  });

  it('a line whose place was renamed in the catalog since keeps the name it was sold with', async () => {
    const cart = cartOf(await engine.request('POST', '/carts', { body: { items: [concert(1, 'balcony-adult')] } }), 201);
    expect(cart.items[0]?.name).toBe('Balcony — Adult');
    const doc: CatalogDocument = demoCatalog();
    const area = doc.events[0]?.occurrences[0]?.areas[1];
    if (!area) throw new Error('demo catalog without a balcony');
    area.name = { en: 'Upper balcony', de: 'Oberer Balkon' };
    expect((await engine.request('PUT', '/catalog', { body: doc })).status).toBe(200);
    const de: Cart = await readCart(cart.id, 'de');
    expect(de.items[0]?.name).toBe('Balcony — Adult');
    expect(de.receiptLines[0]?.label).toBe('1 × Balcony — Adult');
  });

  it('a place named without English: English answers give the stored default (German before French), French its own', async () => {
    const doc: CatalogDocument = demoCatalog();
    const area = doc.events[0]?.occurrences[0]?.areas[1];
    if (!area) throw new Error('demo catalog without a balcony');
    area.name = { fr: 'Galerie', de: 'Rang' };
    expect((await engine.request('PUT', '/catalog', { body: doc })).status).toBe(200);
    const cart = cartOf(await engine.request('POST', '/carts', { body: { items: [concert(1, 'balcony-adult')] }, headers: lang('de') }), 201);
    expect(cart.items[0]?.name).toBe('Rang — Erwachsene');
    const [en, fr, plain] = await Promise.all([readCart(cart.id, 'en'), readCart(cart.id, 'fr'), cartOf(await engine.request('GET', `/carts/${cart.id}`))]);
    // the stored default is English, else the first of German and French the catalog gives; English falls back to it
    expect(en.items[0]?.name).toBe('Rang — Adult');
    expect(plain.items[0]?.name).toBe('Rang — Adult');
    expect(fr.items[0]?.name).toBe('Galerie — Adulte');
    expect(en.receiptLines[0]?.label).toBe('1 × Rang — Adult');
  });
});
