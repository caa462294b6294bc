import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorEnvelope } from '../helpers/engine';
import type { ScriptedProxy, ScriptedRequest } from '../helpers/scripted-proxy';
import { holdsPlaces, startHubAndTill, type HubAndTill } from './serve-terminals';
import { FEST, readonlyDb, sellItem, waitForStatus, waitUntil, type Api, type Order } from './harness';

/**
 * An online terminal that checks tickets in (issue #26, contract §15) knows some things before its hub does: its
 * sales and its cancellations reach the hub by sync, a moment later. A check-in at such a terminal is decided at the
 * hub within the request, except:
 * - a ticket whose order was cancelled here is refused here (410 TICKET_CANCELLED), the hub not asked: the hub, not
 *   yet told, would admit it;
 * - a ticket sold here is sent to the hub by its signed code (whatever was typed), so the hub decides it by its
 *   signature while the order is still on its way — not refused as unknown, and never admitted twice.
 * "Not told yet" is made real: a proxy between the till and the hub holds the till's delivery (the import, the
 * cancel) in flight — the till neither hears an answer nor sees a failure, so it is online throughout. Hub and till
 * are real `serve` processes at the shipped defaults.
 */

let setup: HubAndTill | undefined;
let proxy: ScriptedProxy;
let hubDir: string;
let tillApi: Api;
let hubApi: Api;
/** which of the till's requests the proxy holds in flight now */
let holding: (request: ScriptedRequest) => boolean = () => false;
/** what the proxy answers itself now, as the hub would (undefined: forwarded) */
let answering: (request: ScriptedRequest) => { status: number; body: unknown } | undefined = () => undefined;

const hubAsked = (): number => proxy.seen.filter((request) => request.method === 'POST' && request.path === '/api/v3/hub/checkins').length;
const hubCheckins = (code: string) => readonlyDb(hubDir, (db) => db.prepare<[string], { gate: string; direction: string }>('SELECT gate, direction FROM checkins WHERE ticket_code = ? ORDER BY seq').all(code));
const checkIn = (code: string) => tillApi.request<{ data: { result: string; gate: string } } & ErrorEnvelope>('POST', '/checkins', { body: { code, occurrenceId: FEST.occurrenceId, gate: 'foyer' } });
const sellOne = (): Promise<Order> => sellItem(tillApi, FEST.field.inventoryItemId, FEST.field.adult);
const delivered = () => waitForStatus(tillApi, (status) => status.waiting === 0 && (status as { checkins?: { waiting: number } }).checkins?.waiting === 0, 30_000, 'the till to deliver');

beforeAll(async () => {
  setup = await startHubAndTill('local-first', { decide: (request) => answering(request) ?? (holding(request) ? 'hold' : 'forward') });
  ({ proxy, hubDir, tillApi, hubApi } = setup);
  await holdsPlaces(tillApi);
}, 60_000);
afterAll(async () => {
  holding = () => false;
  await setup?.close();
});

describe('a check-in at an online terminal, by what it knows before its hub', () => {
  it('a ticket sold here whose order has not reached the hub is decided at the hub, by its signed code: no other gate admits it again', async () => {
    holding = (request) => request.method === 'POST' && request.path === '/api/v3/orders/import';
    const sold = await sellOne() as Order & { tickets: { code: string; signedCode?: string }[] };
    const code = sold.tickets[0]?.code ?? '';
    const signed = sold.tickets[0]?.signedCode ?? '';
    expect(signed).toMatch(/^K1\./);
    await waitUntil(() => proxy.held() > 0, 20_000, "the till's import on its way");
    const asked = hubAsked();

    // typed by its 20-character code at the till: the hub is asked with the ticket's signed code, and admits it
    const admitted = await checkIn(code);
    expect(admitted.status, JSON.stringify(admitted.body)).toBe(201);
    expect(admitted.body.data).toMatchObject({ result: 'admitted', gate: 'foyer' });
    expect(hubAsked()).toBe(asked + 1);
    const sent = proxy.seen.filter((request) => request.path === '/api/v3/hub/checkins').at(-1)?.body as { code?: string } | undefined;
    expect(sent?.code).toBe(signed);
    // decided there, while the order is still on its way: the hub holds the check-in now
    expect(proxy.held()).toBeGreaterThan(0);
    expect(hubCheckins(code)).toEqual([{ gate: 'foyer', direction: 'in' }]);
    // another gate scanning the QR code is refused; so is the till
    const atGate = await hubApi.request<ErrorEnvelope>('POST', '/checkins', { body: { code: signed, occurrenceId: FEST.occurrenceId, gate: 'B' } });
    expect(atGate.status, JSON.stringify(atGate.body)).toBe(409);
    expect(atGate.body.error).toMatchObject({ code: 'ALREADY_CHECKED_IN', details: { gate: 'foyer' } });
    const again = await checkIn(code);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'ALREADY_CHECKED_IN', details: { gate: 'foyer' } });

    holding = () => false;
    proxy.release();
    await delivered();
    // exactly once at the hub, and nothing left to send
    expect(hubCheckins(code)).toEqual([{ gate: 'foyer', direction: 'in' }]);
  }, 90_000);

  it('a ticket whose order was cancelled here is refused here, before the hub (not yet told) is asked', async () => {
    const sold = await sellOne();
    const code = sold.tickets[0]?.code ?? '';
    await delivered();
    holding = (request) => request.method === 'POST' && /^\/api\/v3\/orders\/[^/]+\/cancel$/.test(request.path);
    const cancelled = await tillApi.request('POST', `/orders/${sold.id}/cancel`, { body: {} });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await waitUntil(() => proxy.held() > 0, 20_000, "the till's cancel on its way");
    const asked = hubAsked();

    const refused = await checkIn(code);
    expect(refused.status, JSON.stringify(refused.body)).toBe(410);
    expect(refused.body.error).toMatchObject({ code: 'TICKET_CANCELLED', param: 'code' });
    expect(hubAsked()).toBe(asked);
    expect(hubCheckins(code)).toEqual([]);

    holding = () => false;
    proxy.release();
    await delivered();
    // the hub, told now, refuses it too
    const atHub = await hubApi.request<ErrorEnvelope>('POST', '/checkins', { body: { code, occurrenceId: FEST.occurrenceId, gate: 'hub' } });
    expect(atHub.status, JSON.stringify(atHub.body)).toBe(410);
    expect(hubCheckins(code)).toEqual([]);
  }, 90_000);

  it('a hub that cannot check this terminal\'s signature (its key not taken) is asked again with the code as typed', async () => {
    const sold = await sellOne();
    const code = sold.tickets[0]?.code ?? '';
    await delivered();
    // the hub as it answers a signed code of a key it does not have
    answering = (request) => request.path === '/api/v3/hub/checkins' && String((request.body as { code?: unknown } | undefined)?.code).startsWith('K1.')
      ? { status: 400, body: { error: { type: 'invalid_request_error', code: 'TICKET_INVALID', param: 'code', message: 'This is not a valid ticket code.' } } }
      : undefined;
    try {
      const asked = proxy.seen.length;
      const admitted = await checkIn(code);
      expect(admitted.status, JSON.stringify(admitted.body)).toBe(201);
      const relayed = proxy.seen.slice(asked).filter((request) => request.path === '/api/v3/hub/checkins').map((request) => (request.body as { code: string }).code);
      expect(relayed.map((sent) => (sent.startsWith('K1.') ? 'signed' : sent))).toEqual(['signed', code]);
      // decided at the hub, by its ticket
      expect(hubCheckins(code)).toEqual([{ gate: 'foyer', direction: 'in' }]);
    } finally {
      answering = () => undefined;
    }
  }, 90_000);
});
