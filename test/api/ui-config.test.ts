import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/db';
import { startTestEngine, type TestEngine } from '../helpers/engine';

/** The UI's start-up config: its API key is for the engine's own origin only, and each start makes a new one. */
describe('GET /ui-config.json', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  const config = (headers: Record<string, string> = {}) => fetch(`${engine.url}/ui-config.json`, { headers });

  it('gives the page a till key (with the sync scope, never admin), the API base and the test cards', async () => {
    const response = await config({ 'sec-fetch-site': 'same-origin' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { apiKey: string; apiBase: string; testTokens: string[] };
    expect(body.apiBase).toBe('/api/v3');
    expect(body.testTokens).toEqual(['tok_visa', 'tok_3ds', 'tok_declined', 'tok_risk', 'tok_provider_down']);
    expect((await engine.request('GET', '/events', { key: body.apiKey })).status).toBe(200);
    expect((await engine.request('GET', '/orders', { key: body.apiKey })).status).toBe(200);
    expect((await engine.request('GET', '/sync/status', { key: body.apiKey })).status).toBe(200);
    const denied = await engine.request<{ error: { code: string } }>('PUT', '/catalog', { key: body.apiKey, body: { locations: [], events: [] } });
    expect([denied.status, denied.body.error.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
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
    const firstKey = ((await (await fetch(`${first.url}/ui-config.json`)).json()) as { apiKey: string }).apiKey;
    expect((await first.request('GET', '/events', { key: firstKey })).status).toBe(200);
    await first.close();
    const db = openDatabase(dataDir);
    expect(db.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE name = 'ui-session' AND revoked_at IS NULL").get()).toEqual({ n: 1 });
    db.close();

    const second = await startTestEngine({ dataDir });
    try {
      const secondKey = ((await (await fetch(`${second.url}/ui-config.json`)).json()) as { apiKey: string }).apiKey;
      expect(secondKey).not.toBe(firstKey);
      expect((await second.request('GET', '/events', { key: secondKey })).status).toBe(200);
      expect((await second.request('GET', '/events', { key: firstKey })).status).toBe(401);
    } finally {
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
