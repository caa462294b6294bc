import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { hubWithSyncKey, madeCode } from '../helpers/checkins';
import type { ErrorEnvelope } from '../helpers/engine';
import { readRows } from '../helpers/db-rows';
import { ticketKeys, verifySigned } from '../helpers/ticket-signing';
import { FEST, type Order } from '../sync/harness';

/**
 * Issue #26 at a hub (contract §15, §10), through its HTTP API with a terminal's sync key: the order import keeps
 * the terminal's ticket codes (a clash refuses that order, never a 5xx), a gate's check-in decided here, a gate's
 * offline check-ins recorded — a second entry as a DUPLICATE_ENTRY conflict, resolvable — and the counts.
 */

interface Result { status: number; order?: Order; error?: ErrorEnvelope['error'] }
interface Conflict { id: number; kind: string; orderId: string; code: string; message: string; at: string | null }

const fixture = hubWithSyncKey();

const adults = (quantity: number) => ({ occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.field.inventoryItemId, priceOptionId: FEST.field.adult, quantity });

function terminalOrder(tickets: { code: string; signedCode?: string }[] | undefined, quantity = 2) {
  return {
    idempotencyKey: crypto.randomUUID(),
    reference: `ord_${crypto.randomUUID()}`,
    items: [adults(quantity)],
    expectedTotal: { amount: quantity * FEST.prices.adult, currency: 'EUR' },
    ...(tickets !== undefined && { tickets }),
  };
}

async function importOrders(orders: unknown[]): Promise<Result[]> {
  const answer = await fixture.hub.request<{ data: { results: Result[] } }>('POST', '/orders/import', { key: fixture.syncKey, body: { orders } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.results;
}

async function conflicts(): Promise<Conflict[]> {
  const status = await fixture.hub.request<{ data: { conflicts: Conflict[]; checkins: { waiting: number } } }>('GET', '/sync/status', { key: fixture.hub.keys.admin });
  expect(status.status).toBe(200);
  expect(status.body.data.checkins).toEqual({ waiting: 0 });
  return status.body.data.conflicts.filter((conflict) => conflict.kind === 'checkin');
}

/** An Ed25519 key pair of a terminal, made here with node:crypto: what it gives the hub and how it signs (contract §15). */
function terminalKeyPair() {
  const pair = generateKeyPairSync('ed25519');
  const raw = Buffer.from(pair.publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  const keyId = createHash('sha256').update(raw).digest('base64url').slice(0, 12);
  return {
    key: { keyId, publicKey: raw.toString('base64url'), engine: `eng_${crypto.randomUUID()}` },
    sign(payload: unknown[]): string {
      const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
      return `K1.${bytes.toString('base64url')}.${sign(null, bytes, pair.privateKey).toString('base64url')}.${keyId}`;
    },
  };
}

describe('the import keeps a terminal\'s ticket codes', () => {
  it('issues the tickets under the codes sent (normalized); a code taken, named twice or malformed refuses that order only', async () => {
    const terminal = terminalKeyPair();
    const given = await fixture.hub.request('POST', '/hub/ticket-keys', { key: fixture.syncKey, body: { keys: [terminal.key] } });
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    const stranger = terminalKeyPair();
    const codes = [madeCode(), madeCode(), madeCode(), madeCode(), madeCode(), madeCode()];
    const payload = (code: string, occurrenceId: string = FEST.occurrenceId) => [code, occurrenceId, FEST.field.areaId, null, 'ord_on_the_terminal'];
    const signedByTerminal = terminal.sign(payload(codes[0] ?? ''));
    const [kept] = await importOrders([terminalOrder([
      { code: codes[0]?.toLowerCase() ?? '', signedCode: signedByTerminal },
      { code: `${codes[1]?.slice(0, 10) ?? ''}-${codes[1]?.slice(10) ?? ''}` },
      // not genuine, so not kept: not a signed code at all; a key the hub was never given; another ticket's signature;
      { code: codes[2] ?? '', signedCode: 'K1.the-terminal-s.signature.keyid' },
      { code: codes[3] ?? '', signedCode: stranger.sign(payload(codes[3] ?? '')) },
      { code: codes[4] ?? '', signedCode: terminal.sign(payload(codes[0] ?? '')) },
      // genuine, but for a show this order does not sell
      { code: codes[5] ?? '', signedCode: terminal.sign(payload(codes[5] ?? '', 'another-show')) },
    ], 6)]);
    expect(kept?.status, JSON.stringify(kept)).toBe(201);
    expect(kept?.order?.tickets.map((ticket) => ticket.code)).toEqual(codes);
    // the terminal's genuine signed code is kept as it is; every other ticket is signed here, with the hub's key
    const signed = ((kept?.order?.tickets ?? []) as { signedCode?: string }[]).map((ticket) => ticket.signedCode ?? '');
    expect(signed[0]).toBe(signedByTerminal);
    const hubKeys = (await ticketKeys(fixture.hub)).filter((key) => key.keyId !== terminal.key.keyId);
    for (const [i, text] of signed.entries()) {
      if (i === 0) continue;
      expect(verifySigned(text, hubKeys)?.payload, `ticket ${i}`).toEqual([codes[i], FEST.occurrenceId, FEST.field.areaId, null, kept?.order?.id]);
    }
    const stored = await readRows<{ code: string; signed: string | null }>(fixture.hub, 'SELECT code, signed_code AS signed FROM tickets WHERE code IN (?, ?, ?, ?)', [codes[2], codes[3], codes[4], codes[5]]);
    expect(stored.map((row) => row.signed).sort()).toEqual([signed[2], signed[3], signed[4], signed[5]].sort());

    const fresh = madeCode();
    const results = await importOrders([
      terminalOrder([{ code: codes[0] ?? '' }, { code: madeCode() }]),
      terminalOrder([{ code: fresh }, { code: fresh }]),
      terminalOrder([{ code: 'not a code' }, { code: madeCode() }]),
      terminalOrder([{ code: madeCode() }]),
      terminalOrder(undefined),
    ]);
    expect(results.map((result) => [result.status, result.error?.code, result.error?.param, result.error?.details?.reason])).toEqual([
      [400, 'INVALID_FIELD_VALUE', 'orders[0].tickets[0]', 'taken'],
      [400, 'INVALID_FIELD_VALUE', 'orders[1].tickets[1]', 'duplicate'],
      [400, 'INVALID_FIELD_VALUE', 'orders[2].tickets[0]', 'malformed'],
      [400, 'INVALID_FIELD_VALUE', 'orders[3].tickets', 'count'],
      [201, undefined, undefined, undefined],
    ]);
    // an old terminal's order (no tickets): the hub makes its codes
    expect(results[4]?.order?.tickets).toHaveLength(2);
    // nothing of the refused orders was sold
    expect(await readRows(fixture.hub, 'SELECT code FROM tickets WHERE code = ?', [fresh])).toEqual([]);
  });
});

describe('a terminal gate\'s check-ins at the hub', () => {
  let order: Order;
  beforeAll(async () => {
    const [result] = await importOrders([terminalOrder([{ code: madeCode() }, { code: madeCode() }])]);
    if (!result?.order) throw new Error('no order');
    order = result.order;
  });
  const code = (i: number): string => order.tickets[i]?.code ?? '';

  it('decides a check-in within the gate\'s request, with the terminal as its source; a second "in" is ALREADY_CHECKED_IN naming the first gate', async () => {
    const id = crypto.randomUUID();
    const first = await fixture.hub.request<{ data: { result: string; ticket: { code: string }; gate: string } }>('POST', '/hub/checkins', {
      key: fixture.syncKey, body: { id, code: code(0), occurrenceId: FEST.occurrenceId, direction: 'in', gate: 'A' },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ result: 'admitted', ticket: { code: code(0) }, gate: 'A' });
    const rows = await readRows<{ id: string; source: string | null }>(fixture.hub, 'SELECT id, source FROM checkins WHERE ticket_code = ?', [code(0)]);
    expect(rows).toEqual([{ id, source: expect.any(String) }]);

    const second = await fixture.hub.request<ErrorEnvelope>('POST', '/hub/checkins', { key: fixture.syncKey, body: { id: crypto.randomUUID(), code: code(0), direction: 'in', gate: 'B' } });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'ALREADY_CHECKED_IN', details: { gate: 'A' } });

    const counts = await fixture.hub.request<{ data: { admitted: number; inside: number } }>('GET', `/hub/occurrences/${FEST.occurrenceId}/checkins`, { key: fixture.syncKey });
    expect(counts.status).toBe(200);
    expect(counts.body.data).toMatchObject({ admitted: 1, inside: 1 });
    // the sync key's scope: a key without orders:import gets nothing
    expect((await fixture.hub.request('GET', `/hub/occurrences/${FEST.occurrenceId}/checkins`, { key: fixture.hub.keys.catalogRead })).status).toBe(403);
  });

  it('records every offline check-in, once; a second entry is a DUPLICATE_ENTRY conflict until staff resolve it', async () => {
    const gateA = { id: crypto.randomUUID(), code: code(1), occurrenceId: FEST.occurrenceId, direction: 'in', gate: 'A', at: '2027-06-01T17:40:00.000Z' };
    const gateB = { id: crypto.randomUUID(), code: code(1), occurrenceId: FEST.occurrenceId, direction: 'in', gate: 'B', at: '2027-06-01T17:42:00.000Z' };
    const one = await fixture.hub.request<{ data: { results: unknown[] } }>('POST', '/hub/checkins/import', { key: fixture.syncKey, body: { checkins: [gateA] } });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.data.results).toEqual([{ id: gateA.id, recorded: true, duplicateEntry: false }]);
    expect(await conflicts()).toEqual([]);

    const two = await fixture.hub.request<{ data: { results: unknown[] } }>('POST', '/hub/checkins/import', { key: fixture.syncKey, body: { checkins: [gateA, gateB] } });
    expect(two.body.data.results).toEqual([{ id: gateA.id, recorded: false, duplicateEntry: false }, { id: gateB.id, recorded: true, duplicateEntry: true }]);
    // sent again (a lost answer): nothing twice
    await fixture.hub.request('POST', '/hub/checkins/import', { key: fixture.syncKey, body: { checkins: [gateB] } });
    expect(await readRows(fixture.hub, 'SELECT gate FROM checkins WHERE ticket_code = ? ORDER BY seq', [code(1)])).toEqual([{ gate: 'A' }, { gate: 'B' }]);

    const [conflict, ...more] = await conflicts();
    expect(more).toEqual([]);
    expect(conflict).toMatchObject({ kind: 'checkin', code: 'DUPLICATE_ENTRY', orderId: order.id });
    for (const part of [code(1), 'gate A', gateA.at, 'gate B', gateB.at]) expect(conflict?.message).toContain(part);

    const resolved = await fixture.hub.request<{ data: { state: string; resolvedNote: string } }>('POST', `/sync/checkin-conflicts/${conflict?.id ?? 0}/resolve`, {
      key: fixture.hub.keys.admin, body: { note: 'one guest, scanned twice at the two doors' },
    });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body.data).toMatchObject({ kind: 'checkin', code: 'DUPLICATE_ENTRY', state: 'resolved', resolvedNote: 'one guest, scanned twice at the two doors' });
    expect(await conflicts()).toEqual([]);
    const again = await fixture.hub.request<ErrorEnvelope>('POST', `/sync/checkin-conflicts/${conflict?.id ?? 0}/resolve`, { key: fixture.hub.keys.admin, body: { note: 'again' } });
    expect(again.status).toBe(400);
    expect((await fixture.hub.request('POST', '/sync/checkin-conflicts/99999/resolve', { key: fixture.hub.keys.admin, body: { note: 'x' } })).status).toBe(404);
    // both entries count once: admitted is tickets, not check-ins
    const counts = await fixture.hub.request<{ data: { admitted: number; inside: number } }>('GET', `/hub/occurrences/${FEST.occurrenceId}/checkins`, { key: fixture.syncKey });
    expect(counts.body.data).toMatchObject({ admitted: 2, inside: 2 });
  });
});

describe('offline check-ins the hub cannot read', () => {
  it('a time no clock shows (a leap second) is 400 INVALID_FIELD_VALUE naming it, not a 5xx; nothing of the batch is recorded', async () => {
    const [result] = await importOrders([terminalOrder([{ code: madeCode() }], 1)]);
    const code = result?.order?.tickets[0]?.code ?? '';
    const fine = { id: crypto.randomUUID(), code, occurrenceId: FEST.occurrenceId, direction: 'in', gate: 'A', at: '2027-06-01T17:40:00.000Z' };
    const leap = { id: crypto.randomUUID(), code, occurrenceId: FEST.occurrenceId, direction: 'out', gate: 'A', at: '2026-12-31T23:59:60Z' };
    const answer = await fixture.hub.request<ErrorEnvelope>('POST', '/hub/checkins/import', { key: fixture.syncKey, body: { checkins: [fine, leap] } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'INVALID_REQUEST_ERROR', code: 'INVALID_FIELD_VALUE', param: 'checkins[1].at' });
    expect(await readRows(fixture.hub, 'SELECT id FROM checkins WHERE ticket_code = ?', [code])).toEqual([]);
  });

  it('a gate name with a control character is 400 INVALID_FIELD_VALUE, as at POST /checkins, online and offline; nothing recorded', async () => {
    const [result] = await importOrders([terminalOrder([{ code: madeCode() }], 1)]);
    const code = result?.order?.tickets[0]?.code ?? '';
    for (const gate of ['A\u0000', 'B\nC', 'D\u007F']) {
      const online = await fixture.hub.request<ErrorEnvelope>('POST', '/hub/checkins', { key: fixture.syncKey, body: { id: crypto.randomUUID(), code, direction: 'in', gate } });
      expect(online.status, JSON.stringify(online.body)).toBe(400);
      expect(online.body.error).toMatchObject({ type: 'INVALID_REQUEST_ERROR', code: 'INVALID_FIELD_VALUE', param: 'gate' });
      const offline = { id: crypto.randomUUID(), code, occurrenceId: FEST.occurrenceId, direction: 'in', gate, at: '2027-06-01T17:40:00.000Z' };
      const batch = await fixture.hub.request<ErrorEnvelope>('POST', '/hub/checkins/import', { key: fixture.syncKey, body: { checkins: [offline] } });
      expect(batch.status, JSON.stringify(batch.body)).toBe(400);
      expect(batch.body.error).toMatchObject({ type: 'INVALID_REQUEST_ERROR', code: 'INVALID_FIELD_VALUE', param: 'checkins[0].gate' });
    }
    expect(await readRows(fixture.hub, 'SELECT id FROM checkins WHERE ticket_code = ?', [code])).toEqual([]);
  });
});

describe("a terminal's ticket keys at the hub", () => {
  /** a fresh Ed25519 public key as the contract writes it, with its derived id */
  function publicKey() {
    const raw = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
    return { keyId: createHash('sha256').update(raw).digest('base64url').slice(0, 12), publicKey: raw.toString('base64url'), engine: `eng_${crypto.randomUUID()}` };
  }

  it('learns them (idempotent) and lists them; a key id that is not its key\'s is refused', async () => {
    const key = publicKey();
    const first = await fixture.hub.request<{ data: { learned: number } }>('POST', '/hub/ticket-keys', { key: fixture.syncKey, body: { keys: [key] } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toEqual({ learned: 1 });
    const again = await fixture.hub.request<{ data: { learned: number } }>('POST', '/hub/ticket-keys', { key: fixture.syncKey, body: { keys: [key] } });
    expect(again.body.data).toEqual({ learned: 0 });
    const listed = await fixture.hub.request<{ data: { keyId: string; publicKey: string; engine: string }[] }>('GET', '/ticket-keys', { key: fixture.hub.keys.catalogRead });
    expect(listed.body.data).toContainEqual(key);

    const other = publicKey();
    const wrong = await fixture.hub.request<ErrorEnvelope>('POST', '/hub/ticket-keys', { key: fixture.syncKey, body: { keys: [{ ...other, keyId: key.keyId.split('').reverse().join('') }] } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'INVALID_FIELD_VALUE', param: 'keys[0]', details: { reason: 'key_id_mismatch' } });
    expect((await fixture.hub.request('POST', '/hub/ticket-keys', { key: fixture.hub.keys.catalogRead, body: { keys: [other] } })).status).toBe(403);
  });
});
