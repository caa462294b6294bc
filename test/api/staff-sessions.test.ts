import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, startTestEngine, TEST_STAFF_PIN, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { createTestDatabase } from '../helpers/postgres';
import { card, cash, checkout, expectError, orderOf, type OrdersPage } from '../helpers/orders';
import { cartOf, concert } from '../helpers/cart-assertions';
import { kill, startServe } from '../helpers/serve-process';

/** Staff sign-in (issue #22): the box office's key comes only for the staff PIN. */

interface Session {
  data: { apiKey: string; role: string; scopes: string[]; expiresAt: string };
}

const signIn = (engine: TestEngine, pin: string, headers: Record<string, string> = {}) =>
  fetch(`${engine.url}/api/v3/staff-sessions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ pin }) });

describe('POST /api/v3/staff-sessions', () => {
  let engine: TestEngine;
  let clock = Date.parse('2027-02-01T09:00:00Z');
  beforeAll(async () => {
    engine = await startTestEngine({ now: () => clock });
  });
  afterAll(() => engine.close());

  it('hands the box office key of its role for the right PIN: any payment and any order, never admin or catalog:write', async () => {
    const answer = await signIn(engine, TEST_STAFF_PIN, { 'sec-fetch-site': 'same-origin' });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const { data } = (await answer.json()) as Session;
    expect(data.role).toBe('box-office');
    expect([...data.scopes].sort()).toEqual(['carts:write', 'catalog:read', 'orders:any', 'orders:read', 'orders:write', 'sync']);
    expect(Date.parse(data.expiresAt) - clock).toBe(12 * 3600 * 1000);

    // the kiosk sells by card; staff see its order and take cash
    const kiosk = await engine.createKey(['catalog:read', 'carts:write', 'orders:checkout']);
    const kioskCart = cartOf(await engine.request('POST', '/carts', { key: kiosk, body: { items: [concert(1)] } }), 201);
    const kioskOrder = orderOf(await checkout(engine, kioskCart.id, kioskCart.total, card(), { apiKey: kiosk }));
    const listed = await engine.request<OrdersPage>('GET', '/orders', { key: data.apiKey });
    expect(listed.body.data.map((order) => order.id)).toContain(kioskOrder.id);
    const cart = cartOf(await engine.request('POST', '/carts', { key: data.apiKey, body: { items: [concert(1)] } }), 201);
    expect(orderOf(await checkout(engine, cart.id, cart.total, cash(), { apiKey: data.apiKey })).payment.method).toBe('cash');
    expect((await engine.request('PUT', '/catalog', { key: data.apiKey, body: {} })).status).toBe(403);
    expect((await engine.request('GET', '/legacy/usage', { key: data.apiKey })).status).toBe(403);
  });

  it('answers a wrong PIN 401 INVALID_STAFF_PIN; the fifth in a row locks the sign-in for 5 minutes (429 with Retry-After), even for the right PIN', async () => {
    for (let i = 1; i <= 4; i += 1) {
      const wrong = await signIn(engine, '000000');
      expect(wrong.status).toBe(401);
      const body = (await wrong.json()) as ErrorEnvelope;
      expect(body.error).toMatchObject({ type: 'AUTHENTICATION_ERROR', code: 'INVALID_STAFF_PIN' });
    }
    const fifth = await signIn(engine, '000000');
    expect(fifth.status).toBe(429);
    expect(((await fifth.json()) as ErrorEnvelope).error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(fifth.headers.get('retry-after')).toBe('300');
    clock += 60_000;
    const right = await signIn(engine, TEST_STAFF_PIN);
    expect(right.status).toBe(429);
    expect(right.headers.get('retry-after')).toBe('240');
    clock += 240_000;
    expect((await signIn(engine, TEST_STAFF_PIN)).status).toBe(201);
  });

  it('answers only this machine’s own page: a cross-site fetch is refused', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const answer = await signIn(engine, TEST_STAFF_PIN, { 'sec-fetch-site': site });
      expect(answer.status).toBe(403);
      expect(((await answer.json()) as ErrorEnvelope).error.code).toBe('ORIGIN_NOT_ALLOWED');
    }
    expect((await signIn(engine, TEST_STAFF_PIN, { origin: 'http://evil.example' })).status).toBe(403);
  });

  it('a staff key lapses after 12 hours (401) and ends at sign-out (DELETE …/current → 204, then 401)', async () => {
    const first = ((await (await signIn(engine, TEST_STAFF_PIN)).json()) as Session).data.apiKey;
    const second = ((await (await signIn(engine, TEST_STAFF_PIN)).json()) as Session).data.apiKey;
    expect((await engine.request('GET', '/orders', { key: first })).status).toBe(200);
    const out = await engine.request('DELETE', '/staff-sessions/current', { key: first });
    expect(out.status).toBe(204);
    expectError(await engine.request('GET', '/orders', { key: first }), 401, 'INVALID_API_KEY');
    expect((await engine.request('GET', '/orders', { key: second })).status).toBe(200);
    // only a staff key has a staff session to end
    expectError(await engine.request('DELETE', '/staff-sessions/current', { key: engine.keys.admin }), 404, 'RESOURCE_NOT_FOUND');
    clock += 12 * 3600 * 1000;
    expectError(await engine.request('GET', '/orders', { key: second }), 401, 'INVALID_API_KEY');
  });

  it('a staff key survives an engine restart, and a new sign-in goes on with the sale on screen', async () => {
    const key = ((await (await signIn(engine, TEST_STAFF_PIN)).json()) as Session).data.apiKey;
    const cart = cartOf(await engine.request('POST', '/carts', { key, body: { items: [concert(2)] } }), 201);
    await engine.stop();
    await engine.start();
    expect((await engine.request('GET', `/carts/${cart.id}`, { key })).status).toBe(200);
    const next = ((await (await signIn(engine, TEST_STAFF_PIN)).json()) as Session).data.apiKey;
    expect((await engine.request('DELETE', '/staff-sessions/current', { key })).status).toBe(204);
    expect(orderOf(await checkout(engine, cart.id, cart.total, cash(), { apiKey: next })).cartId).toBe(cart.id);
  });
});

describe('the staff PIN the engine makes itself', () => {
  it('at the first start: a 6-digit PIN in DATA/staff-pin.txt (0600), one stdout line with the path, the PIN in no log', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kassa-staff-pin-'));
    try {
      // the engine's database: SQLite in dataDir, or a fresh PostgreSQL database in the postgres project
      const database = onPostgres ? ['--database', await createTestDatabase({ migrated: true })] : [];
      const serve = await startServe(['--data', dataDir, ...database, '--log-level', 'debug'], 30_000, { KASSA_STAFF_PIN_HASH: '' });
      const file = join(dataDir, 'staff-pin.txt');
      await expect.poll(() => serve.output(), { timeout: 5000 }).toContain(`staff PIN: see ${file}`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const pin = readFileSync(file, 'utf8').trim();
      expect(pin).toMatch(/^\d{6}$/);
      const url = serve.url;
      const signed = await fetch(`${url}/api/v3/staff-sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin }) });
      expect(signed.status).toBe(201);
      const wrong = await fetch(`${url}/api/v3/staff-sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin: pin === '000000' ? '111111' : '000000' }) });
      expect(wrong.status).toBe(401);
      expect(await kill(serve, 'SIGTERM')).toBe(0);
      const lines = serve.output();
      expect(lines.split('\n').filter((line) => line.startsWith('staff PIN:'))).toEqual([`staff PIN: see ${file}`]);
      // the PIN itself: not in stdout, not in the pino log (stderr), at any level
      expect(lines).not.toContain(pin);

      // the next start keeps it and says nothing
      const again = await startServe(['--data', dataDir, ...database], 30_000, { KASSA_STAFF_PIN_HASH: '' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(again.output()).not.toContain('staff PIN');
      expect(readFileSync(file, 'utf8').trim()).toBe(pin);
      expect((await fetch(`${again.url}/api/v3/staff-sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin }) })).status).toBe(201);
      await kill(again, 'SIGTERM');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
