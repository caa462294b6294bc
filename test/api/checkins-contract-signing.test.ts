import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, seat } from '../helpers/cart-assertions';
import {
  CONCERT,
  CONCERT_2,
  checkIn,
  expectVerified,
  formatSigned,
  keyIdOf,
  keyWith,
  parseSigned,
  postCheckin,
  revocations,
  sellTickets,
  signedOf,
  ticketKeys,
  type SignedOrder,
  type TicketKey,
} from '../helpers/checkins-contract';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { expectError, ISO_TIMESTAMP } from '../helpers/orders';
import { cancelOrder } from '../helpers/shifts-contract';

/**
 * Contract §15, the signed codes: every ticket's `signedCode` is `K1.<payload>.<signature>.<keyId>` and verifies with
 * node:crypto alone against GET /api/v3/ticket-keys (the payload is the design's JSON array [code, occurrenceId,
 * areaId, seat | null, orderId]); a tampered payload or signature, an unknown key id and another engine's key answer
 * TICKET_INVALID; a cancelled order's codes are listed by GET /api/v3/ticket-revocations. Written from the contract
 * and the shared design's wire format only. (Key rotation: checkins-contract-rotation.test.ts.)
 */

let engine: TestEngine;
let gate: string;
let keys: TicketKey[];
beforeAll(async () => {
  engine = await startTestEngine();
  gate = await keyWith(engine);
  keys = await ticketKeys(engine, gate);
});
afterAll(async () => {
  await engine.close();
});

/** flips one bit of a copy of `bytes` */
const flipped = (bytes: Buffer, at: number): Buffer => {
  const copy = Buffer.from(bytes);
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
};

describe('§15 GET /ticket-keys and the signature, checked with node:crypto alone', () => {
  it('lists this engine\'s key: { keyId, publicKey, engine }, a raw 32-byte Ed25519 key in base64url, its id derived from it', () => {
    expect(keys.length).toBeGreaterThanOrEqual(1);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['engine', 'keyId', 'publicKey']);
      expect(key.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(key.publicKey, 'base64url')).toHaveLength(32);
      expect(key.keyId).toBe(keyIdOf(key.publicKey));
      expect(key.engine).toMatch(/^eng_/);
    }
  });

  it('every ticket sold carries a signed code whose signature verifies and whose payload names the ticket, show, area, seat and order', async () => {
    const standing: SignedOrder = await sellTickets(engine, [concert(2), concert(1, 'balcony-adult')]);
    const seated = await sellTickets(engine, [seat('B3'), seat('P7', 'circle-full')]);
    // the demo catalog's areas and seat labels of what was sold
    const place: Record<string, { areaId: string; seat: string | null }> = {
      standing: { areaId: 'standing', seat: null },
      balcony: { areaId: 'balcony', seat: null },
      B3: { areaId: 'stalls', seat: 'Row B, Seat 3' },
      P7: { areaId: 'circle', seat: 'Row P, Seat 7' },
    };
    const areas: string[] = [];
    for (const order of [standing, seated]) {
      for (const ticket of order.tickets) {
        const item = order.items.find((candidate) => candidate.id === ticket.itemId);
        const where = place[item?.inventoryItemId ?? ''];
        expect(where, JSON.stringify(item)).toBeDefined();
        areas.push(where?.areaId ?? '');
        expectVerified(signedOf(ticket), keys, { code: ticket.code, occurrenceId: item?.occurrenceId ?? '', areaId: where?.areaId ?? '', seat: where?.seat ?? null, orderId: order.id });
      }
    }
    expect(areas.sort()).toEqual(['balcony', 'circle', 'stalls', 'standing', 'standing']);
    // read back: GET /orders/{id} carries the same signed codes
    const read = await engine.request<{ data: SignedOrder }>('GET', `/orders/${standing.id}`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.data.tickets.map((ticket) => ticket.signedCode)).toEqual(standing.tickets.map((ticket) => ticket.signedCode));
  });
});

describe('§15 a signed code that does not hold answers 400 TICKET_INVALID', () => {
  let order: SignedOrder;
  beforeAll(async () => {
    order = await sellTickets(engine, [concert(2)]);
  });

  it('a tampered payload, a tampered or cut signature, an unknown key id, swapped payloads: 400 TICKET_INVALID, and the ticket still enters afterwards', async () => {
    const [ticket, other] = order.tickets;
    if (ticket === undefined || other === undefined) throw new Error('no tickets');
    const parsed = parseSigned(signedOf(ticket));
    const otherParsed = parseSigned(signedOf(other));
    const elsewhere = Buffer.from(JSON.stringify([ticket.code, CONCERT_2.occurrenceId, 'standing', null, order.id]), 'utf8');
    const tampered = [
      formatSigned(elsewhere, parsed.signature, parsed.keyId),
      formatSigned(flipped(parsed.payloadBytes, 3), parsed.signature, parsed.keyId),
      formatSigned(otherParsed.payloadBytes, parsed.signature, parsed.keyId),
      formatSigned(parsed.payloadBytes, flipped(parsed.signature, 10), parsed.keyId),
      formatSigned(parsed.payloadBytes, flipped(parsed.signature, 63), parsed.keyId),
      formatSigned(parsed.payloadBytes, parsed.signature.subarray(0, 32), parsed.keyId),
      formatSigned(parsed.payloadBytes, parsed.signature, 'AAAAAAAAAAAA'),
      formatSigned(parsed.payloadBytes, parsed.signature, `${parsed.keyId}x`),
      formatSigned(Buffer.from('not json at all', 'utf8'), parsed.signature, parsed.keyId),
      `K1.${parsed.payloadBytes.toString('base64url')}.${parsed.signature.toString('base64url')}`,
      `K2.${parsed.payloadBytes.toString('base64url')}.${parsed.signature.toString('base64url')}.${parsed.keyId}`,
      `K1.${parsed.payloadBytes.toString('base64url')}.!!!.${parsed.keyId}`,
    ];
    for (const code of tampered) {
      expectError(await postCheckin(engine, gate, { code }), 400, 'TICKET_INVALID', 'code');
      expectError(await postCheckin(engine, gate, { code, occurrenceId: CONCERT.occurrenceId }), 400, 'TICKET_INVALID', 'code');
    }
    // nothing of that was recorded: both tickets enter now
    await checkIn(engine, gate, { code: signedOf(ticket) });
    await checkIn(engine, gate, { code: signedOf(other) });
  });

  it('another engine\'s signed code (a key this engine never learned) answers 400 TICKET_INVALID here and 201 there', async () => {
    const stranger = await startTestEngine();
    try {
      const strangerGate = await keyWith(stranger);
      const strangerKeys = await ticketKeys(stranger, strangerGate);
      expect(strangerKeys.map((key) => key.keyId)).not.toEqual(expect.arrayContaining(keys.map((key) => key.keyId)));
      const [ticket] = (await sellTickets(stranger, [concert(1)])).tickets;
      if (ticket === undefined) throw new Error('no ticket');
      expect(parseSigned(signedOf(ticket)).keyId).toBe(strangerKeys[0]?.keyId);
      expectError(await postCheckin(engine, gate, { code: signedOf(ticket) }), 400, 'TICKET_INVALID', 'code');
      await checkIn(stranger, strangerGate, { code: signedOf(ticket) });
    } finally {
      await stranger.close();
    }
  });
});

describe('§15 cancelled tickets: 410 TICKET_CANCELLED, and the revocation list', () => {
  it('GET /ticket-revocations lists every ticket of a cancelled order { seq, code, occurrenceId, at }, readable with checkin or catalog:read', async () => {
    const kept = await sellTickets(engine, [concert(1)]);
    const order = await sellTickets(engine, [concert(2)]);
    const codes = order.tickets.map((ticket) => ticket.code).sort();
    const before = await revocations(engine, gate);
    expect(before.data.filter((entry) => codes.includes(entry.code))).toEqual([]);
    await cancelOrder(engine, order.id);

    for (const key of [gate, engine.keys.catalogRead]) {
      const after = await revocations(engine, key);
      const listed = after.data.filter((entry) => codes.includes(entry.code));
      expect(listed.map((entry) => entry.code).sort()).toEqual(codes);
      for (const entry of listed) {
        expect(entry.occurrenceId).toBe(CONCERT.occurrenceId);
        expect(entry.at).toMatch(ISO_TIMESTAMP);
        expect(Number.isInteger(entry.seq)).toBe(true);
      }
      expect(after.data.map((entry) => entry.code)).not.toContain(kept.tickets[0]?.code ?? '');
      const seqs = after.data.map((entry) => entry.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      // paging: nothing after the last entry
      const last = Math.max(...seqs);
      expect((await revocations(engine, key, `?after=${last}`)).data).toEqual([]);
    }

    for (const ticket of order.tickets) {
      expectError(await postCheckin(engine, gate, { code: ticket.code }), 410, 'TICKET_CANCELLED');
      expectError(await postCheckin(engine, gate, { code: signedOf(ticket) }), 410, 'TICKET_CANCELLED');
    }
    const [keptTicket] = kept.tickets;
    if (keptTicket === undefined) throw new Error('no ticket');
    await checkIn(engine, gate, { code: signedOf(keptTicket) });
  });
});
