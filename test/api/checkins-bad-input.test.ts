import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { checkedIn, codeOf, concertOrder, countsOf, postCheckin } from '../helpers/checkins';
import { expectError } from '../helpers/orders';

/**
 * A client mistake is never a 5xx (common standards): malformed check-in bodies, odd codes, gates and show ids on
 * POST /checkins and GET /occurrences/{id}/checkins each answer a 4xx in the error envelope, and nothing is stored.
 */

let engine: TestEngine;
let gate: string;
let code = '';
beforeAll(async () => {
  engine = await startTestEngine();
  gate = await engine.createKey(['checkin']);
  code = codeOf(await concertOrder(engine));
});
afterAll(() => engine.close());

function expectClientError(response: { status: number; body: unknown }, label: string): void {
  expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBeGreaterThanOrEqual(400);
  expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBeLessThan(500);
  const error = (response.body as Partial<ErrorEnvelope>).error;
  expect(typeof error?.code, label).toBe('string');
  expect(typeof error?.type, label).toBe('string');
  expect(typeof error?.message, label).toBe('string');
}

describe('malformed check-ins', () => {
  it('missing or wrongly typed fields are 400 with the field named', async () => {
    expectError(await postCheckin(engine, gate, {}), 400, 'MISSING_REQUIRED_FIELD', 'code');
    expectError(await postCheckin(engine, gate, { code: 42 }), 400, 'INVALID_FIELD_VALUE', 'code');
    expectError(await postCheckin(engine, gate, { code: '' }), 400, 'INVALID_FIELD_VALUE', 'code');
    expectError(await postCheckin(engine, gate, { code: 'A'.repeat(601) }), 400, 'INVALID_FIELD_VALUE', 'code');
    expectError(await postCheckin(engine, gate, { code, direction: 'sideways' }), 400, 'INVALID_FIELD_VALUE', 'direction');
    expectError(await postCheckin(engine, gate, { code, gate: '' }), 400, 'INVALID_FIELD_VALUE', 'gate');
    expectError(await postCheckin(engine, gate, { code, gate: 'G'.repeat(41) }), 400, 'INVALID_FIELD_VALUE', 'gate');
    expectError(await postCheckin(engine, gate, { code, occurrenceId: '' }), 400, 'INVALID_FIELD_VALUE', 'occurrenceId');
  });

  it('odd bodies, codes, gates and show ids: 4xx in the envelope, never 5xx, and nothing stored', async () => {
    const bodies: unknown[] = [
      null, [], 'code', 42, { code: null }, { code: [code] }, { code, extra: 1 }, { code, direction: 'IN' },
      { code: `\u0000${code}` }, { code: `${code.slice(0, 10)}\u0000${code.slice(10)}` }, { code: 'Ünïcødé-КОД-ЖЖЖЖЖЖЖЖЖЖЖ' },
      { code: 'K1.' }, { code: 'K1....' }, { code: `K1.${'A'.repeat(590)}` }, { code: 'k1.abc.def.ghi' },
      { code, occurrenceId: '\u0000' }, { code, occurrenceId: 'x'.repeat(5000) }, { code, gate: 'a\u0000b' }, { code, gate: 7 },
    ];
    for (const body of bodies) expectClientError(await postCheckin(engine, gate, body), JSON.stringify(body).slice(0, 60));
    const raw = await engine.request('POST', '/checkins', { key: gate, rawBody: '{"code": ', headers: { 'content-type': 'application/json' } });
    expectError(raw, 400, 'MALFORMED_JSON');
    for (const id of ['%00', 'x'.repeat(5000), '..', '%E2%80%AE']) {
      expectClientError(await engine.request('GET', `/occurrences/${id}/checkins`, { key: gate }), id.slice(0, 20));
    }
    // none of them stored anything: the ticket was never admitted
    expect((await countsOf(engine, gate, 'brass-2027-03-12')).admitted).toBe(0);
    expect((await checkedIn(engine, gate, { code })).result).toBe('admitted');
  });
});
