import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorEnvelope } from '../helpers/engine';
import type { ScriptedProxy, ScriptedRequest } from '../helpers/scripted-proxy';
import { holdsPlaces, startHubAndTill, type HubAndTill } from './serve-terminals';
import { FEST, readonlyDb, sellItem, waitForStatus, type Api } from './harness';

/**
 * A gate that decided a ticket alone (the hub did not answer in time) knows more of that ticket than its hub until its
 * offline check-in has reached the hub. Once the hub answers again, a second scan of that ticket — the pass handed back
 * over the fence — must not be admitted by the hub, which has not heard of the first entry yet: the gate decides it
 * from what it knows. Hub and till are real `serve` processes at the shipped defaults; a proxy between them makes the
 * hub miss one check-in (503) and keeps the till's offline check-ins in flight.
 */

let setup: HubAndTill | undefined;
let proxy: ScriptedProxy;
let hubDir: string;
let tillApi: Api;
let holding: (request: ScriptedRequest) => boolean = () => false;
let answering: (request: ScriptedRequest) => { status: number; body: unknown } | undefined = () => undefined;

const relayed = (): number => proxy.seen.filter((request) => request.method === 'POST' && request.path === '/api/v3/hub/checkins').length;
const hubCheckins = (code: string) => readonlyDb(hubDir, (db) => db.prepare<[string], { gate: string; direction: string }>('SELECT gate, direction FROM checkins WHERE ticket_code = ? ORDER BY at, seq').all(code));
const checkIn = (code: string, direction: 'in' | 'out' = 'in') =>
  tillApi.request<{ data: { result: string } } & ErrorEnvelope>('POST', '/checkins', { body: { code, occurrenceId: FEST.occurrenceId, gate: 'foyer', direction } });
const waiting = () => waitForStatus(tillApi, (status) => status.waiting === 0 && (status as { checkins?: { waiting: number } }).checkins?.waiting === 0, 30_000, 'the till to deliver');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  setup = await startHubAndTill('pending', { decide: (request) => answering(request) ?? (holding(request) ? 'hold' : 'forward') });
  ({ proxy, hubDir, tillApi } = setup);
  await holdsPlaces(tillApi);
}, 60_000);
afterAll(async () => {
  holding = () => false;
  await setup?.close();
});

describe('a ticket this gate decided alone, before its check-in reached the hub', () => {
  it('is not admitted a second time by the hub once it answers again', async () => {
    const sold = await sellItem(tillApi, FEST.field.inventoryItemId, FEST.field.adult);
    const code = sold.tickets[0]?.code ?? '';
    await waiting();
    // the hub misses this one check-in; the till's offline check-ins stay on their way
    answering = (request) => (request.path === '/api/v3/hub/checkins'
      ? { status: 503, body: { error: { type: 'api_error', code: 'SERVICE_UNAVAILABLE', message: 'down' } } }
      : undefined);
    holding = (request) => request.method === 'POST' && request.path === '/api/v3/hub/checkins/import';
    const first = await checkIn(code);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    answering = () => undefined;
    // the hub answers again (after the gate's recheck span)
    await sleep(5_500);
    const asked = relayed();

    const again = await checkIn(code);
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'ALREADY_CHECKED_IN', details: { gate: 'foyer' } });
    // going out is this gate's to decide too (the hub would answer NOT_CHECKED_IN)
    const out = await checkIn(code, 'out');
    expect(out.status, JSON.stringify(out.body)).toBe(201);
    expect(relayed()).toBe(asked);

    holding = () => false;
    proxy.release();
    await waiting();
    // exactly once at the hub: the entry and the exit, no entry of the hub's own
    expect(hubCheckins(code)).toEqual([{ gate: 'foyer', direction: 'in' }, { gate: 'foyer', direction: 'out' }]);
    // and the hub decides it again now that it knows
    const back = await checkIn(code);
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    expect(relayed()).toBe(asked + 1);
  }, 90_000);
});
