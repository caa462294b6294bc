import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartOf, seat } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { newKey, type Order } from '../helpers/orders';

/**
 * A replayed checkout answers the original status and body (contract §5): byte for byte, whatever language the
 * replay asks in. The order's lines, event, venue and ticket areas stay in the language of the checkout that
 * made it (README, "Decisions where the spec and contract are silent"); reading the order is not a replay and
 * follows the reader's language.
 */

interface Raw {
  status: number;
  replayed: string | null;
  text: string;
}

describe('POST /orders replayed in another language', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  /** POST /orders as sent over the wire, its answer as text: the bytes a till or an integrator would compare */
  async function placeRaw(body: unknown, key: string, language?: string): Promise<Raw> {
    const response = await fetch(`${engine.url}/api/v3/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-api-key': engine.keys.admin, 'idempotency-key': key, ...(language !== undefined && { 'accept-language': language }) },
      body: JSON.stringify(body),
    });
    return { status: response.status, replayed: response.headers.get('idempotent-replayed'), text: await response.text() };
  }

  it('an order placed in German, replayed in French, English and with no Accept-Language: the same bytes each time, in German', async () => {
    const cart = cartOf(await engine.request('POST', '/carts', { body: { items: [seat('C4')] }, headers: { 'accept-language': 'de' } }), 201);
    const body = { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'cash' } };
    const key = newKey();

    const first = await placeRaw(body, key, 'de-DE,de;q=0.9');
    expect(first.status, first.text).toBe(201);
    expect(first.replayed).toBeNull();
    // German indeed, so that the replays below could differ from it
    const original = (JSON.parse(first.text) as { data: Order & { event: { name: string } } }).data;
    expect(original.items[0]?.name).toBe('Parkett, Row C, Seat 4 — Normalpreis');
    expect(original.event.name).toBe('Der Sturm');

    for (const language of ['fr', 'en', 'en-GB,en;q=0.8', undefined]) {
      const again = await placeRaw(body, key, language);
      expect(again.status, `replayed in ${language ?? 'no language'}`).toBe(201);
      expect(again.replayed, `replayed in ${language ?? 'no language'}`).toBe('true');
      expect(again.text, `replayed in ${language ?? 'no language'}`).toBe(first.text);
    }

    // Reading the order is not a replay: it answers in the reader's language.
    const read = await engine.request<{ data: Order & { event: { name: string } } }>('GET', `/orders/${original.id}`, { headers: { 'accept-language': 'fr' } });
    expect(read.status).toBe(200);
    expect(read.body.data.event.name).toBe('La Tempête');
    expect(read.body.data.items[0]?.name).not.toBe(original.items[0]?.name);
  });

  it('an order placed in English, replayed in German: the English body again', async () => {
    const cart = cartOf(await engine.request('POST', '/carts', { body: { items: [seat('C5')] } }), 201);
    const body = { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'cash' } };
    const key = newKey();
    const first = await placeRaw(body, key, 'en');
    expect(first.status, first.text).toBe(201);
    expect((JSON.parse(first.text) as { data: Order }).data.items[0]?.name).toBe('Stalls, Row C, Seat 5 — Full price');

    const again = await placeRaw(body, key, 'de');
    expect(again.replayed).toBe('true');
    expect(again.text).toBe(first.text);
  });
});
