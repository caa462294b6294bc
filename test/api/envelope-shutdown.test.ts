import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../engine/catalog/demo';
import { concert, createCart } from '../helpers/cart-assertions';
import { readRows } from '../helpers/db-rows';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { paymentUnderWay } from '../helpers/orders';

/**
 * Framework errors in the envelope (431, Content-Length that does not fit, a body past the catalog's size
 * limit) and a shutdown that does not wait out keep-alive connections. Raw TCP where the HTTP client would
 * refuse to send what a broken client sends.
 */

/** Sends raw bytes and reads everything the server answers until it closes the connection. */
function raw(engine: TestEngine, bytes: string): Promise<string> {
  const { hostname, port } = new URL(engine.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text)).on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
  });
}

/** The answers in a raw HTTP/1.1 stream: status and JSON body of each. */
function answers(text: string): Array<{ status: number; body: { error?: { type: string; code: string; message: string } } }> {
  return text
    .split(/(?=HTTP\/1\.1 \d{3})/)
    .filter((part) => part.startsWith('HTTP/1.1'))
    .map((part) => {
      const status = Number(part.slice(9, 12));
      const body = part.slice(part.indexOf('\r\n\r\n') + 4);
      return { status, body: JSON.parse(body) as { error?: { type: string; code: string; message: string } } };
    });
}

describe('framework errors in the envelope', () => {
  let engine: TestEngine;
  let host = '';
  beforeAll(async () => {
    engine = await startTestEngine();
    host = new URL(engine.url).host;
  });
  afterAll(() => engine.close());

  it('headers past the limit: 431 HEADERS_TOO_LARGE in the envelope', async () => {
    const text = await raw(engine, `GET /api/v3/health HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    const [answer] = answers(text);
    expect(answer?.status).toBe(431);
    expect(answer?.body.error).toMatchObject({ type: 'INVALID_REQUEST_ERROR', code: 'HEADERS_TOO_LARGE' });
    expect(answer?.body.error?.message.length).toBeGreaterThan(0);
    expect(text.toLowerCase()).toContain('content-type: application/json');
  });

  it('a body longer than its Content-Length: the first request is answered, the rest is 400 MALFORMED_REQUEST', async () => {
    const text = await raw(engine, `POST /api/v3/carts HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"items": []}`);
    const [first, second] = answers(text);
    expect(first?.status).toBe(401); // no key: the request itself was read and answered in the envelope
    expect(first?.body.error?.code).toBe('INVALID_API_KEY');
    expect(second?.status).toBe(400);
    expect(second?.body.error).toMatchObject({ type: 'INVALID_REQUEST_ERROR', code: 'MALFORMED_REQUEST' });
  });

  it('Content-Length together with Transfer-Encoding, or not a number: 400 MALFORMED_REQUEST', async () => {
    for (const headers of ['Content-Length: 2\r\nTransfer-Encoding: chunked', 'Content-Length: two']) {
      const [answer] = answers(await raw(engine, `POST /api/v3/carts HTTP/1.1\r\nHost: ${host}\r\n${headers}\r\n\r\n{}`));
      expect(answer?.status, headers).toBe(400);
      expect(answer?.body.error?.code).toBe('MALFORMED_REQUEST');
    }
  });

  it('a catalog past 16 MiB: 413 BODY_TOO_LARGE naming the limit, the catalog unchanged', async () => {
    const doc = demoCatalog();
    const padded = { ...doc, locations: doc.locations.map((location, i) => (i === 0 ? { ...location, name: 'x'.repeat(200) } : location)) };
    const body = JSON.stringify(padded).replace('"locations"', `"padding":"${'p'.repeat(17 * 1024 * 1024)}","locations"`);
    const response = await engine.request<{ error: { code: string; details: { limit: number } } }>('PUT', '/catalog', { rawBody: body });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('BODY_TOO_LARGE');
    expect(response.body.error.details.limit).toBe(16 * 1024 * 1024);
    const locations = await engine.request<{ data: Array<{ name: string }> }>('GET', '/locations');
    expect(locations.body.data[0]?.name).not.toBe('x'.repeat(200));
  });
});

describe('shutdown does not wait out keep-alive connections', () => {
  it('a connection busy when close starts is closed once answered; an idle one at once; close ends within 5 s of the last answer', async () => {
    const engine = await startTestEngine({ paymentAnswerDelayMs: 1500 });
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    try {
      const { hostname, port } = new URL(engine.url);
      const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
        new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
          const req = httpRequest({ agent, hostname, port, method, path: `/api/v3${path}`, headers: { 'x-svc-api-key': engine.keys.admin, 'content-type': 'application/json', ...headers } }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          });
          req.on('error', reject);
          req.end(body === undefined ? undefined : JSON.stringify(body));
        });

      // an idle keep-alive connection
      expect((await call('GET', '/health')).connection).toBe('keep-alive');
      const cart = await createCart(engine, [concert(1)]);
      // a busy one: the provider answers after 1.5 s
      const busy = call('POST', '/orders', { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa' } }, { 'idempotency-key': crypto.randomUUID() });
      await paymentUnderWay(engine);

      const started = Date.now();
      const closed = engine.close();
      const answered = await busy;
      const lastAnswer = Date.now();
      expect(answered.status).toBe(201);
      expect(answered.connection).toBe('close');
      await closed;
      expect(Date.now() - lastAnswer).toBeLessThan(5_000);
      expect(Date.now() - started).toBeLessThan(10_000); // not the 72 s keep-alive
    } finally {
      agent.destroy();
    }
  }, 30_000);

  it('a checkout whose client went away is finished before the database closes: paid, nothing left for recovery, no error logged', async () => {
    const engine = await startTestEngine({ paymentAnswerDelayMs: 1500 });
    try {
      const { hostname, port } = new URL(engine.url);
      const cart = await createCart(engine, [concert(1)]);
      const idempotencyKey = crypto.randomUUID();
      const body = JSON.stringify({ cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa' } });
      const gone = httpRequest({ hostname, port, method: 'POST', path: '/api/v3/orders', headers: { 'x-svc-api-key': engine.keys.admin, 'content-type': 'application/json', 'idempotency-key': idempotencyKey } });
      gone.on('error', () => undefined);
      gone.end(body);
      await paymentUnderWay(engine);
      // the till is switched off mid-payment: its connection closes, the server has nobody left to wait for
      gone.destroy();
      await engine.stop();
      const logs = engine.logs();
      expect(logs).not.toContain('"level":60');
      expect(logs).not.toContain('the database is closed');

      await engine.start();
      expect(engine.logs()).not.toContain('left open by a crash');
      // the same request again: the order the first one made, paid once
      const replay = await engine.request<{ data: { id: string; status: string; payment: { status: string } } }>('POST', '/orders', {
        rawBody: body,
        headers: { 'idempotency-key': idempotencyKey },
      });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data.payment.status).toBe('captured');
    } finally {
      await engine.close();
    }
  }, 30_000);

  it('at the shipped 30 s provider deadline: the shutdown waits out a checkout whose provider never answers, and it ends not charged', async () => {
    const engine = await startTestEngine();
    try {
      const { hostname, port } = new URL(engine.url);
      const cart = await createCart(engine, [concert(1)]);
      const gone = httpRequest({ hostname, port, method: 'POST', path: '/api/v3/orders', headers: { 'x-svc-api-key': engine.keys.admin, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() } });
      gone.on('error', () => undefined);
      gone.end(JSON.stringify({ cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_timeout' } }));
      await paymentUnderWay(engine);
      gone.destroy();
      const started = Date.now();
      await engine.stop();
      const waited = Date.now() - started;
      // the charge's deadline passes, the provider is asked about the reference, the attempt ends not charged
      expect(waited).toBeGreaterThan(25_000);
      expect(waited).toBeLessThan(35_000 + 2_000);
      expect(engine.logs()).toContain('waiting for the work under way');
      expect(engine.logs()).not.toContain('work still running at shutdown');
      expect(await readRows(engine, 'SELECT state, outcome FROM payment_attempts')).toEqual([{ state: 'failed', outcome: 'not_charged' }]);
    } finally {
      await engine.close();
    }
  }, 60_000);
});

