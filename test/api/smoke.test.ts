import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';

describe('a new engine', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('answers health without a key', async () => {
    const response = await engine.request('GET', '/health', { key: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', database: { kind: process.env.KASSA_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite', status: 'ok' } });
  });

  it('has the demo catalog', async () => {
    const response = await engine.request<{ data: { id: string; availableCurrencies: string[] }[] }>('GET', '/locations');
    expect(response.status).toBe(200);
    expect(response.body.data[0]?.availableCurrencies[0]).toBe('EUR');
  });
});
