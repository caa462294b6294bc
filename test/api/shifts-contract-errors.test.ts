import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type ApiResponse, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { eur, expectError } from '../helpers/orders';
import { closeShift, getCurrent, openShift, postMovement, postShift, tillKey, type Shift } from '../helpers/shifts-contract';
import { readJournal } from '../helpers/journal-contract';

/**
 * Contract §14 with §6 and §8: the scopes of every shift and journal route (403 INSUFFICIENT_PERMISSIONS with
 * details.requiredScope), bad input answered 400 in the envelope (MISSING_REQUIRED_FIELD with `param`, invalid
 * money, money in another currency than the base), never a 5xx, nothing written by a refusal; the new conflicts
 * in English, German and French with the same code.
 */

let engine: TestEngine;
let open: Shift;
let closed: Shift;
const keys = { reader: '', writer: '', carts: '' };

beforeAll(async () => {
  engine = await startTestEngine();
  closed = await openShift(engine, eur(1000));
  await closeShift(engine, closed.id, eur(1000));
  open = await openShift(engine, eur(1000));
  keys.reader = await tillKey(engine, ['orders:read']);
  keys.writer = await tillKey(engine, ['orders:write', 'orders:read', 'carts:write', 'catalog:read']);
  keys.carts = engine.keys.carts;
});
afterAll(async () => {
  await engine.close();
});

/** 403 INSUFFICIENT_PERMISSIONS naming the scope */
function expectForbidden(response: ApiResponse, scope: string): void {
  expect(expectError(response, 403, 'INSUFFICIENT_PERMISSIONS').details?.requiredScope).toBe(scope);
}

describe('§14 scopes', () => {
  it('POST /shifts, cash-movements, close and print need orders:write', async () => {
    expectForbidden(await postShift(engine, { openingFloat: eur(0) }, keys.reader), 'orders:write');
    expectForbidden(await postMovement(engine, open.id, { kind: 'payIn', amount: eur(100), reason: 'x' }, keys.reader), 'orders:write');
    expectForbidden(await engine.request('POST', `/shifts/${open.id}/close`, { key: keys.reader, body: { counted: eur(0) } }), 'orders:write');
    expect((await postMovement(engine, open.id, { kind: 'payIn', amount: eur(100), reason: 'x' }, keys.writer)).status).toBe(201);
    expectForbidden(await engine.request('POST', `/shifts/${open.id}/print`, { key: keys.reader, body: {} }), 'orders:write');
    // this engine has no printer: anything but a 403 (contract §12: 409 PRINTER_NOT_CONFIGURED)
    const printing = await engine.request('POST', `/shifts/${open.id}/print`, { key: keys.writer, body: {} });
    expect(printing.status, JSON.stringify(printing.body)).not.toBe(403);
    expect(printing.status).toBeLessThan(500);
  });

  it('GET /shifts/current, /shifts and the report need orders:read', async () => {
    for (const path of ['/shifts/current', '/shifts', `/shifts/${open.id}/report`, `/shifts/${closed.id}/report`]) {
      expectForbidden(await engine.request('GET', path, { key: keys.carts }), 'orders:read');
      const allowed = await engine.request('GET', path, { key: keys.reader });
      expect(allowed.status, `${path}: ${JSON.stringify(allowed.body)}`).toBe(200);
    }
  });

  it('the journal, its verification and the export need admin: an orders:write key gets 403 naming admin', async () => {
    for (const path of ['/journal', '/journal?after=0&limit=10', '/journal/verify', `/shifts/${closed.id}/export`]) {
      expectForbidden(await engine.request('GET', path, { key: keys.writer }), 'admin');
      expectForbidden(await engine.request('GET', path, { key: keys.reader }), 'admin');
    }
    expect((await engine.request('GET', '/journal')).status).toBe(200);
    expect((await engine.request('GET', '/journal/verify')).status).toBe(200);
  });

  it('no key: 401 on every route', async () => {
    for (const [method, path] of [['POST', '/shifts'], ['GET', '/shifts/current'], ['GET', '/shifts'], ['GET', `/shifts/${open.id}/report`], ['POST', `/shifts/${open.id}/cash-movements`], ['POST', `/shifts/${open.id}/close`], ['GET', '/journal'], ['GET', '/journal/verify']] as const) {
      const response = await engine.request(method, path, { key: null, ...(method === 'POST' && { body: {} }) });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('§14 bad input: 400 in the envelope, nothing written', () => {
  const money = (amount: unknown, currency: unknown = 'EUR') => ({ amount, currency });
  const INVALID_MONEY: [string, unknown][] = [
    ['negative', money(-100)],
    ['not an integer', money(10.5)],
    ['a string amount', money('100')],
    ['no currency', { amount: 100 }],
    ['a number', 100],
  ];

  it('POST /shifts without openingFloat: 400 MISSING_REQUIRED_FIELD, param openingFloat', async () => {
    await closeShift(engine, open.id, eur(0));
    expectError(await postShift(engine, {}), 400, 'MISSING_REQUIRED_FIELD', 'openingFloat');
    expectError(await postShift(engine, { staff: 'Ada' }), 400, 'MISSING_REQUIRED_FIELD', 'openingFloat');
  });

  it.each(INVALID_MONEY)('POST /shifts with an openingFloat %s: 400 INVALID_FIELD_VALUE or MISSING_REQUIRED_FIELD naming it', async (_name, value) => {
    const response = await postShift(engine, { openingFloat: value });
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    const { error } = response.body as ErrorEnvelope;
    expect(['INVALID_FIELD_VALUE', 'MISSING_REQUIRED_FIELD']).toContain(error.code);
    expect(error.type).toBe('INVALID_REQUEST_ERROR');
    expect(error.param ?? '').toMatch(/^openingFloat/);
  });

  it('POST /shifts with an openingFloat in another currency than the base: 400 INVALID_FIELD_VALUE naming it', async () => {
    const error = expectError(await postShift(engine, { openingFloat: money(1000, 'USD') }), 400, 'INVALID_FIELD_VALUE');
    expect(error.param ?? '').toMatch(/^openingFloat/);
  });

  it('POST /shifts with broken JSON: 400 MALFORMED_JSON; with a staff of the wrong type: 400 INVALID_FIELD_VALUE', async () => {
    expectError(await engine.request('POST', '/shifts', { rawBody: '{"openingFloat": {' }), 400, 'MALFORMED_JSON');
    expectError(await postShift(engine, { openingFloat: eur(0), staff: 42 }), 400, 'INVALID_FIELD_VALUE', 'staff');
    // none of these opened a shift
    expectError(await getCurrent(engine), 404, 'RESOURCE_NOT_FOUND');
    open = await openShift(engine, eur(1000));
    expect(open.number).toBe(3);
  });

  it.each([
    ['kind', { amount: eur(100), reason: 'x' }],
    ['amount', { kind: 'payIn', reason: 'x' }],
    ['reason', { kind: 'payIn', amount: eur(100) }],
  ])('a cash movement without %s: 400 MISSING_REQUIRED_FIELD naming it', async (field, body) => {
    expectError(await postMovement(engine, open.id, body), 400, 'MISSING_REQUIRED_FIELD', field);
  });

  it('a cash movement of an unknown kind, invalid money or another currency: 400 naming the field', async () => {
    expectError(await postMovement(engine, open.id, { kind: 'steal', amount: eur(100), reason: 'x' }), 400, 'INVALID_FIELD_VALUE', 'kind');
    for (const [, value] of INVALID_MONEY) {
      const response = await postMovement(engine, open.id, { kind: 'payIn', amount: value, reason: 'x' });
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect((response.body as ErrorEnvelope).error.param ?? '').toMatch(/^amount/);
    }
    expect((await postMovement(engine, open.id, { kind: 'payIn', amount: money(100, 'USD'), reason: 'x' }))).toMatchObject({ status: 400, body: { error: { code: 'INVALID_FIELD_VALUE' } } });
    expect((await postMovement(engine, open.id, { kind: 'payIn', amount: eur(100), reason: 7 })).status).toBe(400);
  });

  it('a close without counted, with invalid money or another currency: 400, and the shift stays open', async () => {
    expectError(await engine.request('POST', `/shifts/${open.id}/close`, { body: {} }), 400, 'MISSING_REQUIRED_FIELD', 'counted');
    expectError(await engine.request('POST', `/shifts/${open.id}/close`, { body: { note: 'x' } }), 400, 'MISSING_REQUIRED_FIELD', 'counted');
    for (const [, value] of [...INVALID_MONEY, ['USD', money(100, 'USD')] as [string, unknown]]) {
      const response = await engine.request('POST', `/shifts/${open.id}/close`, { body: { counted: value } });
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect((response.body as ErrorEnvelope).error.param ?? '').toMatch(/^counted/);
    }
    expect(((await getCurrent(engine)).body as { data: Shift }).data.id).toBe(open.id);
  });

  it.each(['limit=0', 'limit=1001', 'limit=x', 'limit=2.5', 'after=-1', 'after=x'])('GET /journal?%s: 400 INVALID_FIELD_VALUE naming the parameter', async (query) => {
    expectError(await engine.request('GET', `/journal?${query}`), 400, 'INVALID_FIELD_VALUE', query.split('=')[0]);
  });

  it('the refusals above wrote no journal entry: one per open, close and accepted movement only', async () => {
    const kinds = (await readJournal(engine)).map((entry) => entry.kind);
    expect(kinds).toEqual(['shiftOpened', 'shiftClosed', 'shiftOpened', 'payIn', 'shiftClosed', 'shiftOpened']);
  });
});

describe('§14 never a 5xx', () => {
  const bodies: unknown[] = [null, [], 'text', 0, { openingFloat: null }, { openingFloat: { amount: 2 ** 60, currency: 'EUR' } }, { openingFloat: { amount: 1, currency: 'XXXX' } }, { openingFloat: eur(0), staff: 'x'.repeat(100_000) }, { kind: null, amount: null, reason: null }, { counted: [], note: {} }, { __proto__: { admin: true }, openingFloat: eur(0) }];
  const ids = ['', '%00', '..%2F..', 'x'.repeat(2000), "' OR 1=1 --"];

  it('odd bodies and ids on every route answer a 4xx (or success) in the envelope', async () => {
    const routes: [string, (id: string) => string][] = [
      ['POST', () => '/shifts'],
      ['POST', (id) => `/shifts/${id}/cash-movements`],
      ['POST', (id) => `/shifts/${id}/close`],
      ['POST', (id) => `/shifts/${id}/print`],
      ['GET', (id) => `/shifts/${id}/report`],
      ['GET', (id) => `/shifts/${id}/export`],
      ['GET', (id) => `/shifts?limit=${id}&cursor=${id}`],
      ['GET', (id) => `/journal?after=${id}&limit=${id}`],
    ];
    for (const [method, path] of routes) {
      for (const id of [...ids, open.id]) {
        for (const body of method === 'POST' ? bodies : [undefined]) {
          // raw: an export that succeeds answers a zip, not JSON
          const response = await fetch(`${engine.url}/api/v3${path(id)}`, {
            method,
            headers: { 'x-svc-api-key': engine.keys.admin, ...(body !== undefined && { 'content-type': 'application/json' }) },
            ...(body !== undefined && { body: JSON.stringify(body) }),
          });
          const text = await response.text();
          const where = `${method} ${path(id).slice(0, 80)} ${JSON.stringify(body)?.slice(0, 80)}`;
          expect(response.status, `${where}: ${text.slice(0, 200)}`).toBeLessThan(500);
          if (response.status >= 400) expect(typeof (JSON.parse(text) as Partial<ErrorEnvelope>).error?.code, where).toBe('string');
        }
      }
    }
  });
});

describe('§14 errors in English, German and French: the code never changes', () => {
  const cases: [string, () => string, unknown][] = [
    ['SHIFT_ALREADY_OPEN', () => '/shifts', { openingFloat: eur(0) }],
    ['SHIFT_CLOSED', () => `/shifts/${closed.id}/cash-movements`, { kind: 'payIn', amount: eur(100), reason: 'x' }],
    ['INSUFFICIENT_CASH', () => `/shifts/${open.id}/cash-movements`, { kind: 'payOut', amount: eur(10_000_000), reason: 'x' }],
  ];
  it.each(cases)('%s', async (code, path, body) => {
    const messages = new Set<string>();
    for (const language of ['en', 'de', 'fr']) {
      messages.add(expectError(await engine.request('POST', path(), { body, headers: { 'accept-language': language } }), 409, code).message);
    }
    expect(messages.size).toBe(3);
  });
});
