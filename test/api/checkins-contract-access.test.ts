import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert } from '../helpers/cart-assertions';
import { CONCERT, checkIn, expectClientError, getCounts, keyWith, postCheckin, sellTickets, signedOf, type SignedTicket } from '../helpers/checkins-contract';
import { readRows } from '../helpers/db-rows';
import { startTestEngine, type ApiResponse, type TestEngine } from '../helpers/engine';
import { expectError } from '../helpers/orders';

/**
 * Contract §15 and §8, who may do what at the door: scope `checkin` for POST /checkins and the counts (403
 * INSUFFICIENT_PERMISSIONS naming it otherwise), a checkin-only key sells nothing, the ticket keys and revocations
 * readable with `checkin` or `catalog:read`; no private key in any answer or log line; and bad input to POST
 * /checkins answered 4xx in the envelope, never 5xx. Written from the contract and the shared design only.
 */

let engine: TestEngine;
let gate: string;
let ticket: SignedTicket;
/** every answer of this file, as text, for the private-key check at the end */
const seen: string[] = [];
const keep = (response: ApiResponse): ApiResponse => {
  seen.push(JSON.stringify(response.body ?? null));
  return response;
};

beforeAll(async () => {
  engine = await startTestEngine();
  gate = await keyWith(engine);
  const order = await sellTickets(engine, [concert(2)]);
  seen.push(JSON.stringify(order));
  const [first] = order.tickets;
  if (first === undefined) throw new Error('no ticket');
  ticket = first;
});
afterAll(async () => {
  await engine.close();
});

const forbidden = (response: ApiResponse, scope: string): void => {
  const error = expectError(keep(response), 403, 'INSUFFICIENT_PERMISSIONS');
  expect(error.details?.requiredScope).toBe(scope);
};

describe('§15 scopes', () => {
  it('POST /checkins and the counts need scope checkin: other keys answer 403 with details.requiredScope "checkin", none 401', async () => {
    for (const key of [engine.keys.catalogRead, engine.keys.carts, engine.keys.ordersRead, engine.keys.catalogWrite, await keyWith(engine, ['orders:write'])]) {
      forbidden(await postCheckin(engine, key, { code: ticket.code }), 'checkin');
      forbidden(await getCounts(engine, key, CONCERT.occurrenceId), 'checkin');
    }
    expectError(keep(await engine.request('POST', '/checkins', { body: { code: ticket.code }, key: null })), 401, 'INVALID_API_KEY');
    // refused for want of a scope: nothing was recorded, the ticket enters now
    keep(await getCounts(engine, gate, CONCERT.occurrenceId));
    seen.push(JSON.stringify(await checkIn(engine, gate, { code: signedOf(ticket) })));
  });

  it('admin grants checkin too', async () => {
    const [, second] = (await sellTickets(engine, [concert(2)])).tickets;
    if (second === undefined) throw new Error('no ticket');
    seen.push(JSON.stringify(await checkIn(engine, engine.keys.admin, { code: second.code })));
  });

  it('a checkin-only key sells nothing: carts and orders answer 403 naming their scopes', async () => {
    forbidden(await engine.request('POST', '/carts', { key: gate, body: { items: [concert(1)] } }), 'carts:write');
    forbidden(await engine.request('GET', '/orders', { key: gate }), 'orders:read');
  });

  it.each([['/ticket-keys'], ['/ticket-revocations']])('GET %s: 200 with checkin or catalog:read, 403 with carts:write alone, 401 without a key', async (path) => {
    for (const key of [gate, engine.keys.catalogRead]) {
      const response = keep(await engine.request('GET', path, { key }));
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(Array.isArray((response.body as { data: unknown }).data)).toBe(true);
    }
    expectError(keep(await engine.request('GET', path, { key: engine.keys.carts })), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(keep(await engine.request('GET', path, { key: null })).status).toBe(401);
  });
});

describe('bad input to POST /checkins: 4xx in the envelope, never 5xx', () => {
  it.each<[string, unknown]>([
    ['no code', {}],
    ['a number as code', { code: 12345678 }],
    ['an empty code', { code: '' }],
    ['null as code', { code: null }],
    ['an array as code', { code: ['K1.'] }],
    ['an over-long code', { code: 'A'.repeat(601) }],
    ['an over-long signed code', { code: `K1.${'A'.repeat(10_000)}.AAAA.abcdefghijkl` }],
    ['a bad direction', { code: 'ABCDEFGHJKMNPQRSTVWX', direction: 'sideways' }],
    ['a number as direction', { code: 'ABCDEFGHJKMNPQRSTVWX', direction: 1 }],
    ['a number as occurrenceId', { code: 'ABCDEFGHJKMNPQRSTVWX', occurrenceId: 7 }],
    ['an object as gate', { code: 'ABCDEFGHJKMNPQRSTVWX', gate: { name: 'north' } }],
    ['an over-long gate', { code: 'ABCDEFGHJKMNPQRSTVWX', gate: 'g'.repeat(41) }],
    ['an array body', [{ code: 'ABCDEFGHJKMNPQRSTVWX' }]],
    ['a string body', 'ABCDEFGHJKMNPQRSTVWX'],
  ])('%s', async (_label, body) => {
    expectClientError(keep(await postCheckin(engine, gate, body)));
  });

  it('a missing code is 400 MISSING_REQUIRED_FIELD naming it; a bad direction 400 INVALID_FIELD_VALUE naming it; malformed JSON 400 MALFORMED_JSON', async () => {
    expectError(keep(await postCheckin(engine, gate, {})), 400, 'MISSING_REQUIRED_FIELD', 'code');
    // the engine's code for a value of the wrong kind (as elsewhere in the API)
    expectError(keep(await postCheckin(engine, gate, { code: ticket.code, direction: 'sideways' })), 400, 'INVALID_FIELD_VALUE', 'direction');
    expectError(keep(await engine.request('POST', '/checkins', { key: gate, rawBody: '{"code": "K1.' })), 400, 'MALFORMED_JSON');
  });

  it('an unknown occurrenceId is 404 RESOURCE_NOT_FOUND naming it, and admits nothing', async () => {
    const [, other] = (await sellTickets(engine, [concert(2)])).tickets;
    if (other === undefined) throw new Error('no ticket');
    expectError(keep(await postCheckin(engine, gate, { code: other.code, occurrenceId: 'no-such-show' })), 404, 'RESOURCE_NOT_FOUND', 'occurrenceId');
    expectError(keep(await postCheckin(engine, gate, { code: signedOf(other), occurrenceId: 'no-such-show' })), 404, 'RESOURCE_NOT_FOUND', 'occurrenceId');
    seen.push(JSON.stringify(await checkIn(engine, gate, { code: other.code, occurrenceId: CONCERT.occurrenceId })));
  });
});

describe('no private key material in any answer', () => {
  it('neither the stored private key, its seed, nor a PKCS#8 key appears in any answer of this file or in the log', async () => {
    const rows = await readRows<{ private_key: string }>(engine, 'SELECT private_key FROM ticket_keys WHERE private_key IS NOT NULL');
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const secrets = rows.flatMap((row) => {
      const der = Buffer.from(row.private_key, 'base64url');
      // an Ed25519 PKCS#8 key is 16 bytes of header and the 32-byte seed
      const seed = der.subarray(der.length - 32);
      return [row.private_key, seed.toString('base64url'), seed.toString('base64'), seed.toString('hex')];
    });
    const everything = [...seen, engine.logs()];
    expect(seen.length).toBeGreaterThan(20);
    for (const text of everything) {
      for (const secret of secrets) expect(text.includes(secret)).toBe(false);
      expect(text).not.toMatch(/MC4CAQAwBQYDK2VwBCIEI|PRIVATE KEY|privateKey|private_key/);
    }
  });
});
