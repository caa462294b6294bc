import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNumber } from '../helpers/db-rows';
import { startTestEngine, type TestEngine } from '../helpers/engine';

/** The UI's start-up config: its API key is for the engine's own origin only, and each start makes a new one. */
describe('GET /ui-config.json', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  const config = (headers: Record<string, string> = {}) => fetch(`${engine.url}/ui-config.json`, { headers });

  it('gives the page a kiosk key (card sales, the sync status; never cash, orders of others, admin), the API base, the test cards and the staff sign-in', async () => {
    const response = await config({ 'sec-fetch-site': 'same-origin' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { apiKey: string; apiBase: string; testTokens: string[]; staffSignIn: boolean };
    expect(body.apiBase).toBe('/api/v3');
    expect(body.testTokens).toEqual(['tok_visa', 'tok_3ds', 'tok_declined', 'tok_risk', 'tok_provider_down']);
    expect(body.staffSignIn).toBe(true);
    expect((await engine.request('GET', '/events', { key: body.apiKey })).status).toBe(200);
    expect((await engine.request('GET', '/sync/status', { key: body.apiKey })).status).toBe(200);
    // issue #22: what a customer who escapes the kiosk app could do with this key before
    for (const [method, path, scope] of [
      ['GET', '/orders', 'orders:read'],
      ['POST', '/orders/ord_x/cancel', 'orders:write'],
      ['POST', '/sync/conflicts/1/retry', 'sync'],
      ['PUT', '/catalog', 'catalog:write'],
    ] as const) {
      const denied = await engine.request<{ error: { code: string; details?: { requiredScope?: string } } }>(method, path, { key: body.apiKey, ...(method !== 'GET' && { body: {} }) });
      expect([method, path, denied.status, denied.body.error.code, denied.body.error.details?.requiredScope]).toEqual([method, path, 403, 'INSUFFICIENT_PERMISSIONS', scope]);
    }
    const cart = await engine.request<{ data: { id: string; total: { amount: number; currency: string } } }>('POST', '/carts', {
      key: body.apiKey,
      body: { items: [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 }] },
    });
    const pay = (payment: object) =>
      engine.request<{ data: { id: string }; error: { code: string; details?: { requiredScope?: string } } }>('POST', '/orders', {
        key: body.apiKey,
        headers: { 'idempotency-key': crypto.randomUUID() },
        body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment },
      });
    const cash = await pay({ method: 'cash' });
    expect([cash.status, cash.body.error.code, cash.body.error.details?.requiredScope]).toEqual([403, 'INSUFFICIENT_PERMISSIONS', 'orders:write']);
    const sold = await pay({ method: 'card', token: 'tok_visa' });
    expect(sold.status).toBe(201);
    // the kiosk shows and prints its own sale (no printer here: 409, not 403)
    expect((await engine.request('GET', `/orders/${sold.body.data.id}`, { key: body.apiKey })).status).toBe(200);
    expect((await engine.request('POST', `/orders/${sold.body.data.id}/print`, { key: body.apiKey, body: {} })).status).toBe(409);
  });

  it('gives the gate screen its own key (ROLE_SCOPES.gate): the catalog, check-ins and the sync status, nothing of a sale; a CSP that runs the WebAssembly decoder and nothing broader', async () => {
    const body = (await (await config({ 'sec-fetch-site': 'same-origin' })).json()) as { apiKey: string; gateKey: string };
    expect(body.gateKey).toMatch(/\S{20,}/);
    expect(body.gateKey).not.toBe(body.apiKey);
    expect((await engine.request('GET', '/events', { key: body.gateKey })).status).toBe(200);
    expect((await engine.request('GET', '/sync/status', { key: body.gateKey })).status).toBe(200);
    expect((await engine.request('GET', '/occurrences/brass-2027-03-12/checkins', { key: body.gateKey })).status).toBe(200);
    const refused = await engine.request<{ error: { code: string } }>('POST', '/checkins', { key: body.gateKey, body: { code: 'not a ticket', occurrenceId: 'brass-2027-03-12' } });
    expect(refused.body.error.code).toMatch(/^TICKET_(INVALID|NOT_FOUND)$/);
    for (const [method, path, scope] of [
      ['POST', '/carts', 'carts:write'],
      ['GET', '/orders', 'orders:read'],
      ['PUT', '/catalog', 'catalog:write'],
    ] as const) {
      const denied = await engine.request<{ error: { code: string; details?: { requiredScope?: string } } }>(method, path, { key: body.gateKey, ...(method !== 'GET' && { body: {} }) });
      expect([method, path, denied.status, denied.body.error.details?.requiredScope]).toEqual([method, path, 403, scope]);
    }
    const policy = (await fetch(`${engine.url}/`)).headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(policy).not.toMatch(/'unsafe-eval'|'unsafe-inline'/);
  });

  it.each(['cross-site', 'same-site'])('refuses a %s fetch (another page in the kiosk browser)', async (site) => {
    const response = await config({ 'sec-fetch-site': site });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('ORIGIN_NOT_ALLOWED');
  });

  it('refuses another Origin and a rebound Host name', async () => {
    expect((await config({ origin: 'http://evil.example' })).status).toBe(403);
    const { request } = await import('node:http');
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const port = new URL(engine.url).port;
      request({ host: '127.0.0.1', port, path: '/ui-config.json', headers: { host: `evil.example:${port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(403);
  });
});

describe('the UI key on restart', () => {
  it('is new on each start, and the previous one stops working', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kassa-ui-key-'));
    const first = await startTestEngine({ dataDir });
    const { apiKey: firstKey, gateKey: firstGateKey } = (await (await fetch(`${first.url}/ui-config.json`)).json()) as { apiKey: string; gateKey: string };
    expect((await first.request('GET', '/events', { key: firstKey })).status).toBe(200);
    await first.close();
    // the page's key and the gate's
    expect(await readNumber(first, "SELECT COUNT(*) AS n FROM api_keys WHERE name LIKE 'ui-session%' AND revoked_at IS NULL")).toBe(2);

    const second = await startTestEngine({ dataDir });
    try {
      const secondKey = ((await (await fetch(`${second.url}/ui-config.json`)).json()) as { apiKey: string }).apiKey;
      expect(secondKey).not.toBe(firstKey);
      expect((await second.request('GET', '/events', { key: secondKey })).status).toBe(200);
      expect((await second.request('GET', '/events', { key: firstKey })).status).toBe(401);
      expect((await second.request('GET', '/events', { key: firstGateKey })).status).toBe(401);
    } finally {
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
