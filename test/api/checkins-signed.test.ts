import { createPrivateKey, sign } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { readRows } from '../helpers/db-rows';
import { expectError, ISO_TIMESTAMP, type Order } from '../helpers/orders';
import { checkedIn, codeOf, concertOrder, countsOf, postCheckin, seatOrder } from '../helpers/checkins';

/**
 * Signed codes at the door (issue #26, contract §15): a ticket's signed code admits it by its signature alone —
 * also a ticket this engine never sold (signed here with the engine's own key, read from its database and used
 * through node:crypto, as another till with a key the gate knows would) — and shares its presence with the
 * 20-character code; a tampered, truncated or foreign-key code is 400 TICKET_INVALID; a revoked code is 410.
 * Runs on both databases (startTestEngine).
 */

const b64 = (bytes: Buffer | string): string => Buffer.from(bytes).toString('base64url');

interface SigningKey { keyId: string; privateKey: string }

/** the engine's signing key, as its database keeps it (ticket_keys, the one row with signing = 1) */
async function signingKeyOf(engine: TestEngine): Promise<SigningKey> {
  const [row] = await readRows<{ keyId: string; privateKey: string }>(engine, 'SELECT key_id AS "keyId", private_key AS "privateKey" FROM ticket_keys WHERE signing = 1');
  expect(row?.privateKey).toBeTruthy();
  return { keyId: row?.keyId ?? '', privateKey: row?.privateKey ?? '' };
}

/** A K1 code over [code, occurrenceId, areaId, seat, orderId], signed with `key` (the design's wire format). */
function signedCode(key: SigningKey, payload: readonly [string, string, string, string | null, string]): string {
  const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
  const privateKey = createPrivateKey({ key: Buffer.from(key.privateKey, 'base64url'), format: 'der', type: 'pkcs8' });
  return `K1.${b64(bytes)}.${b64(sign(null, bytes, privateKey))}.${key.keyId}`;
}

/** A 20-character code no till has sold (Crockford base32). */
const freshCode = (n: number): string => `7Q${String(n).padStart(4, '0')}${'ABCDEFGHJKMNPQ'}`;

/** Puts a code on the engine's revocation list, as a gate's pull from its hub would. */
async function revoke(engine: TestEngine, code: string, occurrenceId: string): Promise<void> {
  const at = new Date().toISOString();
  if (engine.database === undefined) {
    const db = new Database(join(engine.dataDir, 'kassa.sqlite'));
    try {
      db.prepare('INSERT INTO ticket_revocations (code, occurrence_id, at) VALUES (?, ?, ?)').run(code, occurrenceId, at);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: engine.database });
  await client.connect();
  try {
    await client.query('INSERT INTO ticket_revocations (code, occurrence_id, at) VALUES ($1, $2, $3)', [code, occurrenceId, at]);
  } finally {
    await client.end();
  }
}

const signedOf = (order: Order, index = 0): string => {
  const signed = (order.tickets[index] as { signedCode?: string } | undefined)?.signedCode;
  expect(signed, JSON.stringify(order.tickets)).toMatch(/^K1\./);
  return signed ?? '';
};

describe('check-in by the signed code', () => {
  let engine: TestEngine;
  let gate: string;
  let key: SigningKey;
  beforeAll(async () => {
    engine = await startTestEngine();
    gate = await engine.createKey(['checkin']);
    key = await signingKeyOf(engine);
  });
  afterAll(() => engine.close());

  it('a sold ticket\'s signed code is admitted (answering its 20-character code); its 20-character code is then inside too', async () => {
    const order = await concertOrder(engine);
    const response = await postCheckin(engine, gate, { code: signedOf(order), occurrenceId: 'brass-2027-03-12', gate: 'A' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.data).toEqual({
      result: 'admitted',
      ticket: { code: codeOf(order), eventName: 'Midnight Brass — Live in Concert', occurrenceId: 'brass-2027-03-12', startsAt: order.event?.startsAt, area: 'Standing' },
      at: expect.stringMatching(ISO_TIMESTAMP) as string,
      gate: 'A',
    });
    const again = expectError(await postCheckin(engine, gate, { code: codeOf(order) }), 409, 'ALREADY_CHECKED_IN');
    expect(again.details).toEqual({ at: response.body.data.at, gate: 'A' });
    expect((await checkedIn(engine, gate, { code: codeOf(order), direction: 'out' })).result).toBe('left');
    expect((await checkedIn(engine, gate, { code: signedOf(order) })).result).toBe('admitted');
  });

  it('a seated ticket\'s signed code carries its seat', async () => {
    const order = await seatOrder(engine, 'B2');
    expect((await checkedIn(engine, gate, { code: signedOf(order) })).ticket).toMatchObject({ code: codeOf(order), area: 'Stalls', seat: 'Row B, Seat 2' });
  });

  it('a ticket this engine never sold, signed with a key it knows, is admitted by its signature alone; names from the catalog', async () => {
    const code = freshCode(1);
    const signed = signedCode(key, [code, 'tempest-2027-04-09', 'circle', 'Row C, Seat 3', 'ord_sold_on_another_till']);
    const answer = await checkedIn(engine, gate, { code: signed, occurrenceId: 'tempest-2027-04-09' });
    expect(answer.ticket).toEqual({ code, eventName: 'The Tempest', occurrenceId: 'tempest-2027-04-09', startsAt: '2027-04-09T18:00:00Z', area: 'Circle', seat: 'Row C, Seat 3' });
    expectError(await postCheckin(engine, gate, { code: signed }), 409, 'ALREADY_CHECKED_IN');
    // its 20-character code alone is not known here
    expectError(await postCheckin(engine, gate, { code }), 404, 'TICKET_NOT_FOUND');
    // and names follow the caller's language
    const de = await postCheckin(engine, gate, { code: signedCode(key, [freshCode(2), 'tempest-2027-04-09', 'circle', 'Row C, Seat 4', 'ord_x']) }, { 'accept-language': 'de' });
    expect(de.body.data.ticket).toMatchObject({ eventName: 'Der Sturm', area: 'Rang' });
  });

  it('tampered, truncated, re-keyed or foreign codes are 400 TICKET_INVALID, and nothing is stored', async () => {
    const order = await concertOrder(engine);
    const signed = signedOf(order);
    const [format, payload, signature, keyId] = signed.split('.');
    const other = Buffer.from(JSON.stringify([freshCode(3), 'brass-2027-03-12', 'standing', null, order.id]), 'utf8');
    const flip = (text: string) => `${text.slice(0, 5)}${text[5] === 'A' ? 'B' : 'A'}${text.slice(6)}`;
    const bad = [
      `${format}.${b64(other)}.${signature}.${keyId}`, // another payload under this signature
      `${format}.${payload}.${flip(signature ?? '')}.${keyId}`, // a changed signature
      `${format}.${payload}.${signature}.AAAAAAAAAAAA`, // a key this engine does not know
      `${format}.${payload}.${signature}`, // no key id
      `${format}.${payload}.${(signature ?? '').slice(0, 40)}.${keyId}`, // a short signature
      `K2.${payload}.${signature}.${keyId}`, // another format
      `${signed}.extra`,
      `K1.${b64('not json')}.${signature}.${keyId}`,
    ];
    for (const code of bad) expectError(await postCheckin(engine, gate, { code }), 400, 'TICKET_INVALID', 'code');
    expect((await countsOf(engine, gate, 'brass-2027-03-12')).admitted).toBe(1); // only the first test's ticket
  });

  it('a revoked code is 410 TICKET_CANCELLED: a ticket of an order cancelled here, and one never sold here on the list', async () => {
    const order = await concertOrder(engine);
    expect((await engine.request('POST', `/orders/${order.id}/cancel`, { key: engine.keys.admin })).status).toBe(200);
    expectError(await postCheckin(engine, gate, { code: signedOf(order) }), 410, 'TICKET_CANCELLED', 'code');
    const code = freshCode(4);
    await revoke(engine, code, 'brass-2027-03-13');
    expectError(await postCheckin(engine, gate, { code: signedCode(key, [code, 'brass-2027-03-13', 'standing', null, 'ord_elsewhere']) }), 410, 'TICKET_CANCELLED');
  });

  it('a signed ticket of another show is 409 TICKET_WRONG_OCCURRENCE with its show', async () => {
    const order = await concertOrder(engine, 1, 'brass-2027-03-13');
    const error = expectError(await postCheckin(engine, gate, { code: signedOf(order), occurrenceId: 'brass-2027-03-12' }), 409, 'TICKET_WRONG_OCCURRENCE');
    expect(error.details).toEqual({ occurrenceId: 'brass-2027-03-13', startsAt: order.event?.startsAt });
  });
});
