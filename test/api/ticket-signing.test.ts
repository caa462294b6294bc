import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart, seat } from '../helpers/cart-assertions';
import { readRows } from '../helpers/db-rows';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { cash, expectError, placeOrder } from '../helpers/orders';
import { ticketKeys, verifySigned, type SignedOrder } from '../helpers/ticket-signing';

/**
 * Signed tickets (issue #26, contract §15) on both databases: every ticket sold carries a signed code that a gate
 * verifies with node:crypto alone against GET /ticket-keys, naming the ticket's code, show, area, seat and order.
 * Private keys appear in no answer and no log line.
 */

let engine: TestEngine;
let checkinKey: string;
beforeAll(async () => {
  engine = await startTestEngine();
  checkinKey = await engine.createKey(['checkin']);
});
afterAll(() => engine.close());

async function sell(items: Parameters<typeof createCart>[1]): Promise<SignedOrder> {
  const cart = await createCart(engine, items);
  return (await placeOrder(engine, cart.id, cart.total, cash())) as SignedOrder;
}

describe('signed ticket codes', () => {
  it('lists this engine\'s one public key, its id derived from it, to checkin and catalog:read keys alike', async () => {
    const keys = await ticketKeys(engine);
    expect(keys).toHaveLength(1);
    const [key] = keys;
    expect(Object.keys(key ?? {}).sort()).toEqual(['engine', 'keyId', 'publicKey']);
    expect(Buffer.from(key?.publicKey ?? '', 'base64url')).toHaveLength(32);
    expect(key?.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key?.keyId).toBe(createHash('sha256').update(Buffer.from(key?.publicKey ?? '', 'base64url')).digest('base64url').slice(0, 12));
    expect(key?.engine).toMatch(/^eng_[0-9a-f-]{36}$/);
    expect(await ticketKeys(engine, checkinKey)).toEqual(keys);
    expectError(await engine.request('GET', '/ticket-keys', { key: engine.keys.ordersRead }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await engine.request('GET', '/ticket-keys', { key: null }), 401, 'INVALID_API_KEY');
  });

  it('signs every sold ticket: standing places with a null seat, a seat with its label; verified with node:crypto alone', async () => {
    const standing = await sell([concert(3)]);
    const seated = await sell([seat('B3')]);
    const keys = await ticketKeys(engine);
    const expected: [SignedOrder, string, string, string | null][] = [
      [standing, 'brass-2027-03-12', 'standing', null],
      [seated, 'tempest-2027-04-02', 'stalls', 'Row B, Seat 3'],
    ];
    for (const [order, occurrenceId, areaId, seatLabel] of expected) {
      expect(order.tickets.length).toBeGreaterThan(0);
      for (const ticket of order.tickets) {
        expect(ticket.signedCode, JSON.stringify(ticket)).toMatch(/^K1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}\.[A-Za-z0-9_-]{12}$/);
        const verified = verifySigned(ticket.signedCode ?? '', keys);
        expect(verified?.keyId).toBe(keys[0]?.keyId);
        expect(verified?.payload).toEqual([ticket.code, occurrenceId, areaId, seatLabel, order.id]);
        // fits a QR code on 80 mm paper (the printed ticket's)
        expect((ticket.signedCode ?? '').length).toBeLessThanOrEqual(320);
      }
    }
    // the order as read later carries the same signed codes
    const read = await engine.request<{ data: SignedOrder }>('GET', `/orders/${standing.id}`);
    expect(read.body.data.tickets.map((ticket) => ticket.signedCode)).toEqual(standing.tickets.map((ticket) => ticket.signedCode));
  });

  it('a changed payload, signature or key id does not verify', async () => {
    const order = await sell([concert(1)]);
    const keys = await ticketKeys(engine);
    const signed = order.tickets[0]?.signedCode ?? '';
    const [format, payload = '', signature = '', keyId = ''] = signed.split('.');
    const other = (await sell([concert(1)])).tickets[0]?.signedCode?.split('.') ?? [];
    const forged = Buffer.from(payload, 'base64url').toString('utf8').replace('brass-2027-03-12', 'brass-2027-03-13');
    expect(verifySigned([format, Buffer.from(forged).toString('base64url'), signature, keyId].join('.'), keys)).toBeUndefined();
    expect(verifySigned([format, payload, other[2], keyId].join('.'), keys)).toBeUndefined();
    expect(verifySigned([format, payload, signature, 'AAAAAAAAAAAA'].join('.'), keys)).toBeUndefined();
    expect(verifySigned(signed, keys)).toBeDefined();
  });

  it('never answers nor logs a private key', async () => {
    const rows = await readRows<{ privateKey: string | null }>(engine, 'SELECT private_key AS "privateKey" FROM ticket_keys');
    const secrets = rows.map((row) => row.privateKey).filter((key): key is string => key !== null);
    expect(secrets).toHaveLength(1);
    const order = await sell([concert(2)]);
    const answers = [
      JSON.stringify(await ticketKeys(engine)),
      JSON.stringify(order),
      JSON.stringify((await engine.request('GET', '/orders')).body),
      JSON.stringify((await engine.request('GET', '/ticket-revocations')).body),
      JSON.stringify((await engine.request('GET', '/openapi.json')).body),
    ];
    for (const secret of secrets) {
      // the PKCS#8 DER's last 32 bytes are the private key itself: neither it nor the whole DER anywhere
      const raw = Buffer.from(secret, 'base64url').subarray(-32);
      for (const text of [...answers, engine.logs()]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(raw.toString('base64url'));
        expect(text).not.toContain(raw.toString('base64'));
        expect(text).not.toContain(raw.toString('hex'));
      }
    }
  });
});
