import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatSignedCode, signedPayload } from '../../engine/domain/signed-code';
import { readRows } from '../helpers/db-rows';
import { hubWithSyncKey, madeCode } from '../helpers/checkins';
import type { ErrorEnvelope } from '../helpers/engine';
import { FEST, type Order } from '../sync/harness';

/**
 * Issue #26 at a hub: offline check-ins arrive late and in any order across terminals (each terminal's in its own
 * order). Whether an "in" was a second entry is a matter of WHEN things happened at the doors, not of when the hub
 * heard of them: an "out" between two entries (in time) is a re-entry, not a DUPLICATE_ENTRY; two entries with no
 * "out" between them are one, whichever terminal reconnects first. And where a ticket is now is its latest check-in
 * in time — an old exit arriving late must not let the ticket in again while its holder is inside.
 */

interface Conflict { id: number; kind: string; code: string; message: string; orderId: string }

const fixture = hubWithSyncKey();

async function soldTicket(signedCode?: (code: string) => string): Promise<string> {
  const code = madeCode();
  return (await importTicket(code, signedCode?.(code))).code;
}

async function importTicket(code: string, signedCode?: string): Promise<{ code: string; orderId: string }> {
  const answer = await fixture.hub.request<{ data: { results: { status: number; order?: Order }[] } }>('POST', '/orders/import', {
    key: fixture.syncKey,
    body: { orders: [{
      idempotencyKey: crypto.randomUUID(), reference: `ord_${crypto.randomUUID()}`, tickets: [{ code, ...(signedCode !== undefined && { signedCode }) }],
      items: [{ occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.field.inventoryItemId, priceOptionId: FEST.field.adult, quantity: 1 }],
      expectedTotal: { amount: FEST.prices.adult, currency: 'EUR' },
    }] },
  });
  const [result] = answer.body.data.results;
  expect(result?.status, JSON.stringify(answer.body)).toBe(201);
  return { code, orderId: result?.order?.id ?? '' };
}

const offline = (code: string, direction: 'in' | 'out', gate: string, at: number) =>
  ({ id: crypto.randomUUID(), code, occurrenceId: FEST.occurrenceId, direction, gate, at: new Date(at).toISOString() });

async function importCheckins(checkins: unknown[]): Promise<{ id: string; recorded: boolean; duplicateEntry: boolean }[]> {
  const answer = await fixture.hub.request<{ data: { results: { id: string; recorded: boolean; duplicateEntry: boolean }[] } }>('POST', '/hub/checkins/import', { key: fixture.syncKey, body: { checkins } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.results;
}

async function duplicatesOf(code: string): Promise<Conflict[]> {
  const status = await fixture.hub.request<{ data: { conflicts: Conflict[] } }>('GET', '/sync/status', { key: fixture.hub.keys.admin });
  return status.body.data.conflicts.filter((conflict) => conflict.kind === 'checkin' && conflict.message.includes(code));
}

describe('offline check-ins at the hub, judged by when they happened', () => {
  it('a re-entry through another gate is no DUPLICATE_ENTRY, and an exit arriving late does not let the ticket in twice', async () => {
    const code = await soldTicket();
    // gate B, online: admitted now
    const online = await fixture.hub.request('POST', '/hub/checkins', { key: fixture.syncKey, body: { id: crypto.randomUUID(), code, direction: 'in', gate: 'B' } });
    expect(online.status, JSON.stringify(online.body)).toBe(201);
    // gate A was offline: the guest went in there 20 minutes ago and out 10 minutes ago, before entering at B
    const now = Date.now();
    const results = await importCheckins([offline(code, 'in', 'A', now - 20 * 60_000), offline(code, 'out', 'A', now - 10 * 60_000)]);
    expect(results.map((result) => result.duplicateEntry)).toEqual([false, false]);
    expect(await duplicatesOf(code)).toEqual([]);
    // the guest is inside (since B): a second "in" is refused
    const again = await fixture.hub.request<ErrorEnvelope>('POST', '/hub/checkins', { key: fixture.syncKey, body: { id: crypto.randomUUID(), code, direction: 'in', gate: 'C' } });
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'ALREADY_CHECKED_IN', details: { gate: 'B' } });
  });

  it('two entries with no exit between them are a DUPLICATE_ENTRY even when the exit after them arrived first', async () => {
    const code = await soldTicket();
    const t = Date.parse('2027-06-01T17:00:00.000Z');
    // gate A reconnects first: in at 17:00, out at 17:30
    await importCheckins([offline(code, 'in', 'A', t), offline(code, 'out', 'A', t + 30 * 60_000)]);
    // gate B: in at 17:10 — while the ticket was inside since 17:00 at A
    const [second] = await importCheckins([offline(code, 'in', 'B', t + 10 * 60_000)]);
    expect(second?.duplicateEntry).toBe(true);
    const [conflict, ...more] = await duplicatesOf(code);
    expect(more).toEqual([]);
    expect(conflict).toMatchObject({ code: 'DUPLICATE_ENTRY' });
    for (const part of ['gate A', '2027-06-01T17:00:00.000Z', 'gate B', '2027-06-01T17:10:00.000Z']) expect(conflict?.message).toContain(part);
    // its last check-in (17:30) was the exit: the ticket is outside now
    const back = await fixture.hub.request('POST', '/hub/checkins', { key: fixture.syncKey, body: { id: crypto.randomUUID(), code, direction: 'in', gate: 'C' } });
    expect(back.status, JSON.stringify(back.body)).toBe(201);
  });
});

describe("a terminal's signed ticket checked in at the hub", () => {
  it("is recorded under the hub's order, not the terminal's own order id its signature names", async () => {
    // the terminal's key, given to the hub at first contact
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'jwk' }).x ?? '';
    const keyId = createHash('sha256').update(Buffer.from(raw, 'base64url')).digest('base64url').slice(0, 12);
    const given = await fixture.hub.request('POST', '/hub/ticket-keys', { key: fixture.syncKey, body: { keys: [{ keyId, publicKey: raw, engine: `eng_${crypto.randomUUID()}` }] } });
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    const code = madeCode();
    const payload = signedPayload({ code, occurrenceId: FEST.occurrenceId, areaId: FEST.field.areaId, seat: null, orderId: 'ord_the-terminal-s-own-id' });
    const signedCode = formatSignedCode(payload, sign(null, payload, privateKey), keyId);
    const { orderId } = await importTicket(code, signedCode);

    const online = await fixture.hub.request('POST', '/hub/checkins', { key: fixture.syncKey, body: { id: crypto.randomUUID(), code: signedCode, direction: 'in', gate: 'B' } });
    expect(online.status, JSON.stringify(online.body)).toBe(201);
    expect(await readRows(fixture.hub, 'SELECT order_id AS "orderId" FROM checkins WHERE ticket_code = ?', [code])).toEqual([{ orderId }]);
    // an offline entry before it, with no exit between: the conflict names the hub's order
    await importCheckins([offline(code, 'in', 'A', Date.now() - 60_000)]);
    const [conflict] = await duplicatesOf(code);
    expect(conflict).toMatchObject({ code: 'DUPLICATE_ENTRY', orderId });
  });
});
