import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { de } from '../../../engine/http/messages/de';
import { en } from '../../../engine/http/messages/en';
import { createClient, type ClientOptions } from '../../../renderer/src/api/client';
import { ApiError } from '../../../renderer/src/api/errors';
import { recoveryFor } from '../../../renderer/src/recovery';
import type { Cart } from '../../../renderer/src/api/types';
import { startTestEngine, TEST_STAFF_PIN, type TestEngine } from '../../helpers/engine';

/**
 * The UI's HTTP client: its retry schedule (spec §7.4) under fake timers against a scripted fetch that
 * stands in for network failure modes, then the same client against a real engine.
 */

const BASE = 'http://engine.test/api/v3';
const API_KEY = 'key_for_tests';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** One request the scripted fetch saw: when (ms since the test's start), what and with which headers. */
interface Sent {
  at: number;
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
}

/** An answer of the scripted fetch: a Response made when asked, or a network failure (fetch rejects). */
type Answer = (() => Response) | 'network';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const envelope = (status: number, type: string, code: string, extra: { param?: string; details?: Record<string, unknown> } = {}, headers: Record<string, string> = {}) =>
  json(status, { error: { type, code, message: `${code} says the engine`, ...extra } }, headers);

const unavailable = envelope(503, 'SERVICE_UNAVAILABLE', 'CURRENCY_TEMPORARILY_UNAVAILABLE', { details: { currency: 'CHF' } });

const EVENTS = [{ id: 'midnight-brass', name: 'Midnight Brass', locationId: 'stadthalle', kind: 'ticket', occurrences: [] }];
const eventsOk = json(200, { data: EVENTS });

const CART: Cart = {
  id: '2f0f3a0c-5c0e-4d8e-9a57-0f1c2b3d4e5f',
  expiresAt: '2027-01-01T00:15:00.000Z',
  currency: 'EUR',
  total: { amount: 3900, currency: 'EUR' },
  items: [],
  receiptLines: [],
  vouchers: [],
  options: { currencies: ['EUR'] },
};

/** A fetch that answers from the script, in order, and records every request; past the script it fails loudly. */
function scripted(...answers: Answer[]) {
  const sent: Sent[] = [];
  const start = Date.now();
  const fetchFn: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const text = typeof init?.body === 'string' ? init.body : undefined;
    sent.push({
      at: Date.now() - start,
      method: init?.method ?? 'GET',
      url,
      headers: new Headers(init?.headers),
      body: text === undefined ? undefined : (JSON.parse(text) as unknown),
    });
    const answer = answers[sent.length - 1];
    if (answer === undefined) return new Response('script exhausted', { status: 418 });
    if (answer === 'network') throw new TypeError('fetch failed');
    return answer();
  };
  return { fetch: fetchFn, sent };
}

function clientWith(fetchFn: typeof fetch, options: Partial<ClientOptions> = {}) {
  return createClient({ baseUrl: BASE, apiKey: API_KEY, language: () => 'de', fetch: fetchFn, ...options });
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Settles a promise into its value or its rejection, so nothing rejects unhandled while timers advance. */
function settle<T>(promise: Promise<T>): { done: () => boolean; result: Promise<Outcome<T>> } {
  let done = false;
  const result = promise.then(
    (value): Outcome<T> => ({ ok: true, value }),
    (error: unknown): Outcome<T> => ({ ok: false, error }),
  );
  void result.then(() => {
    done = true;
  });
  return { done: () => done, result };
}

/** The ApiError a call (or a settled call) ended with; fails the test if it resolved or threw anything else. */
async function rejection(call: Promise<unknown> | { result: Promise<Outcome<unknown>> }): Promise<ApiError> {
  const outcome = await ('result' in call ? call.result : settle(call).result);
  if (outcome.ok) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(ApiError);
  if (!(outcome.error instanceof ApiError)) throw new Error('not an ApiError');
  return outcome.error;
}

describe('client retry schedule (fake timers, scripted fetch)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2027-01-01T00:00:00.000Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('three 503s then 200: 4 requests at t = 0, 1 s, 3 s, 7 s, and the call resolves with the data', async () => {
    const script = scripted(unavailable, unavailable, unavailable, eventsOk);
    const call = settle(clientWith(script.fetch).events());

    await vi.advanceTimersByTimeAsync(0);
    expect(script.sent.map((s) => s.at)).toEqual([0]);
    await vi.advanceTimersByTimeAsync(999);
    expect(script.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(script.sent.map((s) => s.at)).toEqual([0, 1000]);
    await vi.advanceTimersByTimeAsync(1999);
    expect(script.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(script.sent.map((s) => s.at)).toEqual([0, 1000, 3000]);
    await vi.advanceTimersByTimeAsync(3999);
    expect(script.sent).toHaveLength(3);
    expect(call.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(script.sent.map((s) => s.at)).toEqual([0, 1000, 3000, 7000]);

    expect(await call.result).toEqual({ ok: true, value: EVENTS });
    expect(script.sent.map((s) => `${s.method} ${s.url}`)).toEqual(Array(4).fill(`GET ${BASE}/events`));
  });

  it('four 503s: rejects with ApiError 503 after exactly 4 requests, the last at 7 s', async () => {
    const script = scripted(unavailable, unavailable, unavailable, unavailable, eventsOk);
    const call = settle(clientWith(script.fetch).events());

    await vi.advanceTimersByTimeAsync(6999);
    expect(script.sent).toHaveLength(3);
    expect(call.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(script.sent.map((s) => s.at)).toEqual([0, 1000, 3000, 7000]);

    const error = await rejection(call);
    expect([error.status, error.type, error.code]).toEqual([503, 'SERVICE_UNAVAILABLE', 'CURRENCY_TEMPORARILY_UNAVAILABLE']);
    expect(error.details).toEqual({ currency: 'CHF' });
    expect(recoveryFor(error)).toBe('retry-later');
  });

  it('a 5xx on a write (POST /carts) is retried too: 502 then 201 → 2 requests, 1 s apart, same body', async () => {
    const script = scripted(envelope(502, 'API_ERROR', 'INTERNAL_ERROR'), json(201, { data: CART }));
    const body = { items: [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 }] };
    const call = settle(clientWith(script.fetch).createCart(body));
    await vi.advanceTimersByTimeAsync(1000);
    expect(await call.result).toEqual({ ok: true, value: CART });
    expect(script.sent.map((s) => [s.at, s.method, s.url])).toEqual([
      [0, 'POST', `${BASE}/carts`],
      [1000, 'POST', `${BASE}/carts`],
    ]);
    expect(script.sent.map((s) => s.body)).toEqual([body, body]);
  });

  it('429 with Retry-After: 2 → the second request 2 s later', async () => {
    const script = scripted(envelope(429, 'RATE_LIMIT_ERROR', 'RATE_LIMIT_EXCEEDED', {}, { 'retry-after': '2' }), eventsOk);
    const call = settle(clientWith(script.fetch).events());
    await vi.advanceTimersByTimeAsync(1999);
    expect(script.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(script.sent.map((s) => s.at)).toEqual([0, 2000]);
    expect(await call.result).toEqual({ ok: true, value: EVENTS });
  });

  it('429 with Retry-After: 5 then 5 again then 200 → requests at 0, 5 s, 10 s', async () => {
    const limited = envelope(429, 'RATE_LIMIT_ERROR', 'RATE_LIMIT_EXCEEDED', {}, { 'retry-after': '5' });
    const script = scripted(limited, limited, eventsOk);
    const call = settle(clientWith(script.fetch).events());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(script.sent.map((s) => s.at)).toEqual([0, 5000, 10_000]);
    expect((await call.result).ok).toBe(true);
  });

  it.each([
    [400, 'INVALID_REQUEST_ERROR', 'INVALID_VOUCHER', 'code', { reason: 'unknown' }],
    [402, 'PAYMENT_ERROR', 'PAYMENT_DECLINED', undefined, undefined],
    [409, 'CONFLICT_ERROR', 'INVENTORY_EXHAUSTED', 'items[0].quantity', { availableQuantity: 2, requestedQuantity: 5 }],
    [410, 'RESOURCE_GONE_ERROR', 'CART_EXPIRED', undefined, undefined],
    [401, 'AUTHENTICATION_ERROR', 'INVALID_API_KEY', undefined, undefined],
    [403, 'PERMISSION_ERROR', 'RISK_CHECK_FAILED', undefined, undefined],
    [404, 'NOT_FOUND_ERROR', 'RESOURCE_NOT_FOUND', 'cartId', undefined],
  ])('%i %s %s is never retried and becomes an ApiError with the envelope fields', async (status, type, code, param, details) => {
    const script = scripted(envelope(status, type, code, { ...(param && { param }), ...(details && { details }) }), eventsOk);
    const call = settle(clientWith(script.fetch).applyVoucher(CART.id, 'NOPE'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(script.sent).toHaveLength(1);
    const error = await rejection(call);
    expect(error.status).toBe(status);
    expect(error.type).toBe(type);
    expect(error.code).toBe(code);
    expect(error.message).toBe(`${code} says the engine`);
    expect(error.param).toBe(param);
    expect(error.details).toEqual(details ?? {});
  });

  it('a 402 on placeOrder is not retried either (its key is retired)', async () => {
    const script = scripted(envelope(402, 'PAYMENT_ERROR', 'PAYMENT_AUTHENTICATION_REQUIRED', { details: { action: '{}' } }), json(201, { data: {} }));
    const call = settle(clientWith(script.fetch).placeOrder({ cartId: CART.id, expectedTotal: CART.total, payment: { method: 'card', token: 'tok_3ds' } }, crypto.randomUUID()));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(script.sent).toHaveLength(1);
    const error = await rejection(call);
    expect([error.status, error.code, error.details]).toEqual([402, 'PAYMENT_AUTHENTICATION_REQUIRED', { action: '{}' }]);
  });

  it('a non-envelope 500 body: retried 3 times, then ApiError 500 of type API_ERROR (code UNREADABLE_ANSWER)', async () => {
    const html = () => new Response('<html>Internal Server Error</html>', { status: 500, statusText: 'Internal Server Error', headers: { 'content-type': 'text/html' } });
    const script = scripted(html, html, html, html);
    const call = settle(clientWith(script.fetch).events());
    await vi.advanceTimersByTimeAsync(7000);
    expect(script.sent.map((s) => s.at)).toEqual([0, 1000, 3000, 7000]);
    const error = await rejection(call);
    expect([error.status, error.type, error.code, error.message]).toEqual([500, 'API_ERROR', 'UNREADABLE_ANSWER', 'Internal Server Error']);
    expect(recoveryFor(error)).toBe('retry-later');
  });

  it('a JSON error body that is not the envelope (no error.code) is API_ERROR too, with its status', async () => {
    const script = scripted(json(400, { message: 'bad' }));
    const error = await rejection(clientWith(script.fetch).events());
    expect([error.status, error.type, error.code]).toEqual([400, 'API_ERROR', 'UNREADABLE_ANSWER']);
    expect(script.sent).toHaveLength(1);
  });

  it('a network failure on POST /carts (createCart) is not retried: 1 request, NETWORK_ERROR at once', async () => {
    const script = scripted('network', json(201, { data: CART }));
    const body = { items: [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 }] };
    const error = await rejection(clientWith(script.fetch).createCart(body));
    expect([error.status, error.type, error.code]).toEqual([0, 'NETWORK_ERROR', 'NETWORK_UNREACHABLE']);
    expect(recoveryFor(error)).toBe('retry-later');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(script.sent).toHaveLength(1);
  });

  it.each([
    ['switchCurrency', 'PATCH', (c: ReturnType<typeof clientWith>) => c.switchCurrency(CART.id, 'USD')],
    ['addExtras', 'POST', (c: ReturnType<typeof clientWith>) => c.addExtras(CART.id, [{ extraId: 'parking', quantity: 1 }])],
    ['changeExtra', 'PATCH', (c: ReturnType<typeof clientWith>) => c.changeExtra(CART.id, 'itm_1', 2)],
    ['applyVoucher', 'POST', (c: ReturnType<typeof clientWith>) => c.applyVoucher(CART.id, 'WELCOME10')],
    ['cancelOrder', 'POST', (c: ReturnType<typeof clientWith>) => c.cancelOrder('ord_1')],
  ])('a network failure on %s (%s, no key) is not retried', async (_name, method, call) => {
    const script = scripted('network', json(200, { data: CART }));
    const error = await rejection(call(clientWith(script.fetch)));
    expect(error.code).toBe('NETWORK_UNREACHABLE');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(script.sent.map((s) => s.method)).toEqual([method]);
  });

  it('a network failure on a GET is retried: fails, fails, then 200 → 3 requests at 0, 1 s, 3 s', async () => {
    const script = scripted('network', 'network', eventsOk);
    const call = settle(clientWith(script.fetch).events());
    await vi.advanceTimersByTimeAsync(3000);
    expect(script.sent.map((s) => s.at)).toEqual([0, 1000, 3000]);
    expect(await call.result).toEqual({ ok: true, value: EVENTS });
  });

  it('a GET that never reaches the engine: 4 requests, then ApiError status 0 NETWORK_ERROR', async () => {
    const script = scripted('network', 'network', 'network', 'network', eventsOk);
    const call = settle(clientWith(script.fetch).events());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(script.sent.map((s) => s.at)).toEqual([0, 1000, 3000, 7000]);
    const error = await rejection(call);
    expect([error.status, error.type, error.code]).toEqual([0, 'NETWORK_ERROR', 'NETWORK_UNREACHABLE']);
  });

  it('DELETE calls (release cart, remove extra, remove voucher) are idempotent, so a network failure is retried', async () => {
    const script = scripted('network', () => new Response(null, { status: 204 }), 'network', json(200, { data: CART }), 'network', json(200, { data: CART }));
    const client = clientWith(script.fetch);
    const release = settle(client.releaseCart(CART.id));
    await vi.advanceTimersByTimeAsync(1000);
    expect(await release.result).toEqual({ ok: true, value: undefined });
    const extra = settle(client.removeExtra(CART.id, 'itm_1'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(await extra.result).toEqual({ ok: true, value: CART });
    const voucher = settle(client.removeVoucher(CART.id, 'WELCOME10'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(await voucher.result).toEqual({ ok: true, value: CART });
    expect(script.sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      `DELETE ${BASE}/carts/${CART.id}`,
      `DELETE ${BASE}/carts/${CART.id}`,
      `DELETE ${BASE}/carts/${CART.id}/items/itm_1`,
      `DELETE ${BASE}/carts/${CART.id}/items/itm_1`,
      `DELETE ${BASE}/carts/${CART.id}/vouchers/WELCOME10`,
      `DELETE ${BASE}/carts/${CART.id}/vouchers/WELCOME10`,
    ]);
  });

  it('placeOrder after a network failure is retried with the SAME Idempotency-Key and the same body', async () => {
    const order = { id: 'ord_1', status: 'confirmed' };
    const script = scripted('network', 'network', json(201, { data: order }));
    const key = crypto.randomUUID();
    const body = { cartId: CART.id, expectedTotal: CART.total, payment: { method: 'card' as const, token: 'tok_visa' } };
    const call = settle(clientWith(script.fetch).placeOrder(body, key));
    await vi.advanceTimersByTimeAsync(3000);
    expect(await call.result).toEqual({ ok: true, value: order });
    expect(script.sent.map((s) => [s.at, s.method, s.url])).toEqual([
      [0, 'POST', `${BASE}/orders`],
      [1000, 'POST', `${BASE}/orders`],
      [3000, 'POST', `${BASE}/orders`],
    ]);
    expect(key).toMatch(UUID_V4);
    expect(script.sent.map((s) => s.headers.get('idempotency-key'))).toEqual([key, key, key]);
    expect(script.sent.map((s) => s.body)).toEqual([body, body, body]);
  });

  it('placeOrder after a 502 (provider down) is retried with the same key too, 4 requests in all', async () => {
    const down = envelope(502, 'API_ERROR', 'PAYMENT_PROVIDER_UNAVAILABLE');
    const script = scripted(down, down, down, down);
    const key = crypto.randomUUID();
    const call = settle(clientWith(script.fetch).placeOrder({ cartId: CART.id, expectedTotal: CART.total, payment: { method: 'card', token: 'tok_provider_down' } }, key));
    await vi.advanceTimersByTimeAsync(7000);
    const error = await rejection(call);
    expect([error.status, error.code]).toEqual([502, 'PAYMENT_PROVIDER_UNAVAILABLE']);
    expect(script.sent.map((s) => s.headers.get('idempotency-key'))).toEqual([key, key, key, key]);
  });

  it('a request that hangs past timeoutMs is aborted and counts as a network failure (a write: not retried)', async () => {
    const sent: number[] = [];
    const start = Date.now();
    const hanging: typeof fetch = (_input, init) =>
      new Promise<Response>((_resolve, reject) => {
        sent.push(Date.now() - start);
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const call = settle(clientWith(hanging, { timeoutMs: 500 }).createCart({ items: [] }));
    await vi.advanceTimersByTimeAsync(499);
    expect(call.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await rejection(call);
    expect(error.code).toBe('NETWORK_UNREACHABLE');
    expect(sent).toEqual([0]);
  });

  it('every request carries x-svc-api-key and accept-language from the options; content-type only with a body', async () => {
    let language = 'de';
    const script = scripted(eventsOk, json(201, { data: CART }), eventsOk);
    const client = clientWith(script.fetch, { language: () => language });
    await client.events();
    language = 'fr';
    await client.createCart({ items: [{ occurrenceId: 'o', inventoryItemId: 'i', priceOptionId: 'p', quantity: 1 }] });
    language = 'en';
    await client.events();
    expect(script.sent.map((s) => s.headers.get('x-svc-api-key'))).toEqual([API_KEY, API_KEY, API_KEY]);
    expect(script.sent.map((s) => s.headers.get('accept-language'))).toEqual(['de', 'fr', 'en']);
    expect(script.sent.map((s) => s.headers.get('content-type'))).toEqual([null, 'application/json', null]);
    expect(script.sent.map((s) => s.headers.get('idempotency-key'))).toEqual([null, null, null]);
  });

  it('paths and query strings: inventory with ?currency=, orders by ticket code, recent orders with limit', async () => {
    const script = scripted(json(200, { data: {} }), json(200, { data: {} }), json(200, { data: [] }), json(200, { data: [] }), json(200, { data: CART }));
    const client = clientWith(script.fetch);
    await client.inventory('brass 2027/03/12');
    await client.inventory('brass-2027-03-12', 'USD');
    await client.orderByTicket('AB CD');
    await client.recentOrders();
    await client.cart(CART.id, 'JPY');
    expect(script.sent.map((s) => s.url)).toEqual([
      `${BASE}/occurrences/brass%202027%2F03%2F12/inventory`,
      `${BASE}/occurrences/brass-2027-03-12/inventory?currency=USD`,
      `${BASE}/orders?ticketCode=AB%20CD`,
      `${BASE}/orders?limit=20`,
      `${BASE}/carts/${CART.id}?currency=JPY`,
    ]);
  });
});

describe('client against a real engine', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  const realClient = (options: Partial<ClientOptions> = {}) =>
    createClient({ baseUrl: `${engine.url}/api/v3`, apiKey: engine.keys.admin, language: () => 'en', ...options });

  /** A client on the real engine that records each answer's method and status and each retry wait (without waiting). */
  const recordingClient = () => {
    const seen: { method: string; status: number }[] = [];
    const waits: number[] = [];
    const client = realClient({
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        seen.push({ method: init?.method ?? 'GET', status: response.status });
        return response;
      },
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    return { client, seen, waits };
  };

  const standing = (quantity: number) => ({ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity });

  it('events(): the demo catalog, in its order', async () => {
    const events = await realClient().events();
    expect(events.map((event) => event.id)).toEqual(['midnight-brass', 'the-tempest', 'gift-card']);
    expect(events[0]?.occurrences.map((occurrence) => occurrence.id)).toEqual(['brass-2027-03-12', 'brass-2027-03-13']);
  });

  it('inventory(): areas with price options and live availability, priced in the currency asked for', async () => {
    const inventory = await realClient().inventory('brass-2027-03-12');
    expect(inventory.currency).toBe('EUR');
    const standingArea = inventory.areas.find((area) => area.id === 'standing');
    expect(standingArea?.priceOptions.find((option) => option.id === 'standing-adult')?.price).toEqual({ amount: 3900, currency: 'EUR' });
    expect(standingArea?.inventoryItems).toEqual([{ id: 'standing', label: 'Standing area', capacity: 40, available: 40, held: 0 }]);
    expect(inventory.extras.find((extra) => extra.id === 'parking')?.price).toEqual({ amount: 800, currency: 'EUR' });
    // 3900 × 1.0825 = 4221.75 → 4222
    const usd = await realClient().inventory('brass-2027-03-12', 'USD');
    expect(usd.areas.find((area) => area.id === 'standing')?.priceOptions[0]?.price).toEqual({ amount: 4222, currency: 'USD' });
  });

  it('createCart: a real cart, the same one GET /carts answers', async () => {
    const cart = await realClient().createCart({ items: [standing(2)] });
    expect(cart.total).toEqual({ amount: 7800, currency: 'EUR' });
    expect(cart.items.map((item) => [item.type, item.priceOptionId, item.quantity])).toEqual([['admission', 'standing-adult', 2]]);
    const read = await engine.request<{ data: Cart }>('GET', `/carts/${cart.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(cart);
  });

  it('a real 400 (bad voucher): ApiError INVALID_VOUCHER, message in the accept-language, recovery fix-input', async () => {
    const cart = await realClient().createCart({ items: [standing(1)] });
    const error = await rejection(realClient().applyVoucher(cart.id, 'NO-SUCH-CODE'));
    expect([error.status, error.type, error.code]).toEqual([400, 'INVALID_REQUEST_ERROR', 'INVALID_VOUCHER']);
    expect(error.message).toBe(en.INVALID_VOUCHER);
    expect(recoveryFor(error)).toBe('fix-input');
    const german = await rejection(realClient({ language: () => 'de' }).applyVoucher(cart.id, 'NO-SUCH-CODE'));
    expect(german.code).toBe('INVALID_VOUCHER');
    expect(german.message).toBe(de.INVALID_VOUCHER);
  });

  it('a real 410: a released cart answers CART_EXPIRED, recovery start-over', async () => {
    const client = realClient();
    const cart = await client.createCart({ items: [standing(1)] });
    await expect(client.releaseCart(cart.id)).resolves.toBeUndefined();
    const error = await rejection(client.cart(cart.id));
    expect([error.status, error.code]).toEqual([410, 'CART_EXPIRED']);
    expect(recoveryFor(error)).toBe('start-over');
  });

  it('a real 503 (currency CHF, no rate) on a read: 4 attempts, then ApiError CURRENCY_TEMPORARILY_UNAVAILABLE, recovery retry-later', async () => {
    const cart = await realClient().createCart({ items: [standing(1)] });
    const { client, seen, waits } = recordingClient();
    const error = await rejection(client.cart(cart.id, 'CHF'));
    expect([error.status, error.type, error.code]).toEqual([503, 'SERVICE_UNAVAILABLE', 'CURRENCY_TEMPORARILY_UNAVAILABLE']);
    expect(recoveryFor(error)).toBe('retry-later');
    expect(seen).toEqual(Array(4).fill({ method: 'GET', status: 503 }));
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it('a currency switch answered 503 CURRENCY_TEMPORARILY_UNAVAILABLE is said at once: one attempt, no wait (someone is waiting)', async () => {
    const cart = await realClient().createCart({ items: [standing(1)] });
    const { client, seen, waits } = recordingClient();
    const error = await rejection(client.switchCurrency(cart.id, 'CHF'));
    expect([error.status, error.type, error.code]).toEqual([503, 'SERVICE_UNAVAILABLE', 'CURRENCY_TEMPORARILY_UNAVAILABLE']);
    expect(error.details).toMatchObject({ currency: 'CHF' });
    expect(seen).toEqual([{ method: 'PATCH', status: 503 }]);
    expect(waits).toEqual([]);
    // the cart keeps its currency
    expect((await client.cart(cart.id)).currency).toBe('EUR');
  });

  it('a wrong API key: 401 INVALID_API_KEY, not retried, recovery sign-in', async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls += 1;
      return fetch(input, init);
    };
    const error = await rejection(realClient({ apiKey: 'not-a-key', fetch: counting }).events());
    expect([error.status, error.code]).toEqual([401, 'INVALID_API_KEY']);
    expect(recoveryFor(error)).toBe('sign-in');
    expect(calls).toBe(1);
  });

  it('a revoked key (engine restarted): one refetch of the configuration, the same request again with the new key, then the answer', async () => {
    const revoked = await engine.createKey(['catalog:read']);
    const keys: string[] = [];
    const counting: typeof fetch = (input, init) => {
      keys.push(new Headers(init?.headers).get('x-svc-api-key') ?? '');
      return fetch(input, init);
    };
    let refetched = 0;
    const client = realClient({
      apiKey: 'svc_revoked_or_unknown',
      fetch: counting,
      reauthenticate: () => {
        refetched += 1;
        return Promise.resolve(revoked);
      },
    });
    const events = await client.events();
    expect(events.map((event) => event.id)).toContain('midnight-brass');
    expect(refetched).toBe(1);
    expect(keys).toEqual(['svc_revoked_or_unknown', revoked]);
    // The new key stays: the next call goes out with it at once.
    await client.events();
    expect([refetched, keys.at(-1)]).toEqual([1, revoked]);
  });

  it('a 401 the new configuration does not cure: retried once only, then INVALID_API_KEY (never a loop)', async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls += 1;
      return fetch(input, init);
    };
    let refetched = 0;
    let next = 0;
    const client = realClient({
      apiKey: 'not-a-key',
      fetch: counting,
      reauthenticate: () => {
        refetched += 1;
        next += 1;
        return Promise.resolve(`still-not-a-key-${next}`);
      },
    });
    const error = await rejection(client.events());
    expect([error.status, error.code]).toEqual([401, 'INVALID_API_KEY']);
    expect([calls, refetched]).toEqual([2, 1]);
  });

  it('a 401 when the configuration answers the same key: no second request', async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls += 1;
      return fetch(input, init);
    };
    const error = await rejection(realClient({ apiKey: 'not-a-key', fetch: counting, reauthenticate: () => Promise.resolve('not-a-key') }).events());
    expect([error.status, calls]).toEqual([401, 1]);
  });

  it('a staff key that ended (reauthenticate answers null): no retry with another key, the 401 is the answer (issue #22)', async () => {
    const keys: string[] = [];
    const counting: typeof fetch = (input, init) => {
      keys.push(new Headers(init?.headers).get('x-svc-api-key') ?? '');
      return fetch(input, init);
    };
    const rejected: string[] = [];
    const client = realClient({
      apiKey: 'lapsed-staff-key',
      fetch: counting,
      reauthenticate: (key) => {
        rejected.push(key);
        // the session switches the page to its own key for what goes on meanwhile, and asks staff to sign in
        client.setKey(engine.keys.catalogRead);
        return Promise.resolve(null);
      },
    });
    const error = await rejection(client.events());
    expect([error.status, error.code]).toEqual([401, 'INVALID_API_KEY']);
    expect(rejected).toEqual(['lapsed-staff-key']);
    expect(keys).toEqual(['lapsed-staff-key']);
    // the next call goes with the key the session set
    await client.events();
    expect(keys.at(-1)).toBe(engine.keys.catalogRead);
  });

  it('the staff sign-in goes without a key, and its 401 (wrong PIN) is the answer: nothing is refetched', async () => {
    const headers: Headers[] = [];
    const counting: typeof fetch = (input, init) => {
      headers.push(new Headers(init?.headers));
      return fetch(input, init);
    };
    let refetched = 0;
    const client = realClient({ fetch: counting, reauthenticate: () => Promise.resolve(String((refetched += 1))) });
    const error = await rejection(client.signIn('000000'));
    expect([error.status, error.code, refetched]).toEqual([401, 'INVALID_STAFF_PIN', 0]);
    expect(headers.map((sent) => sent.get('x-svc-api-key'))).toEqual([null]);
    const session = await client.signIn(TEST_STAFF_PIN);
    expect(session.role).toBe('box-office');
  });

  it('health() reports an unreachable or failing engine at once, without backoff (the Online/Offline probe)', async () => {
    const down = scripted('network', 'network');
    const error = await rejection(clientWith(down.fetch).health());
    expect([error.type, error.code]).toEqual(['NETWORK_ERROR', 'NETWORK_UNREACHABLE']);
    expect(down.sent).toHaveLength(1);
    const failing = scripted(unavailable, unavailable);
    expect((await rejection(clientWith(failing.fetch).health())).status).toBe(503);
    expect(failing.sent).toHaveLength(1);
  });

  it('health() answers without retries when the engine is up', async () => {
    expect(await realClient().health()).toMatchObject({ status: 'ok' });
  });
});
