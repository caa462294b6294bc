import { afterAll, beforeAll, expect } from 'vitest';
import { SYNC_SCOPES, catalogFile } from '../sync/harness';
import { concert, createCart, seat } from './cart-assertions';
import type { EngineOptions } from '../../engine/start';
import { startTestEngine, type ApiResponse, type ErrorEnvelope, type TestEngine } from './engine';
import { cash, placeOrder, type Order } from './orders';

/** Check-ins at the door (issue #26, contract §15) as the tests send and read them. */

export interface CheckinTicket {
  code: string;
  eventName: string;
  occurrenceId: string;
  startsAt: string;
  area: string;
  seat?: string;
}

export interface CheckinAnswer {
  result: 'admitted' | 'left';
  ticket: CheckinTicket;
  at: string;
  gate: string;
}

export interface CheckinCounts {
  admitted: number;
  inside: number;
  capacity: number;
  sold: number;
}

export interface CheckinBody {
  code: string;
  occurrenceId?: string;
  direction?: 'in' | 'out';
  gate?: string;
}

/** POST /checkins with `key` (a key with scope `checkin`). */
export function postCheckin(engine: TestEngine, key: string, body: CheckinBody | unknown, headers: Record<string, string> = {}): Promise<ApiResponse<{ data: CheckinAnswer } & ErrorEnvelope>> {
  return engine.request('POST', '/checkins', { key, body, headers });
}

/** Expects 201 and answers the check-in. */
export async function checkedIn(engine: TestEngine, key: string, body: CheckinBody): Promise<CheckinAnswer> {
  const response = await postCheckin(engine, key, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

/** GET /occurrences/{id}/checkins. */
export async function countsOf(engine: TestEngine, key: string, occurrenceId: string): Promise<CheckinCounts> {
  const response = await engine.request<{ data: CheckinCounts }>('GET', `/occurrences/${encodeURIComponent(occurrenceId)}/checkins`, { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

/** A cash order of `quantity` standing places at the demo concert (default 2027-03-12). */
export async function concertOrder(engine: TestEngine, quantity = 1, occurrenceId = 'brass-2027-03-12'): Promise<Order> {
  const cart = await createCart(engine, [concert(quantity, 'standing-adult', occurrenceId)]);
  return placeOrder(engine, cart.id, cart.total, cash());
}

/** A cash order of one assigned seat at the demo theatre (2027-04-02). */
export async function seatOrder(engine: TestEngine, seatId: string): Promise<Order> {
  const cart = await createCart(engine, [seat(seatId)]);
  return placeOrder(engine, cart.id, cart.total, cash());
}

/** The order's only (or first) ticket code. */
export function codeOf(order: Order, index = 0): string {
  const code = order.tickets[index]?.code;
  expect(code, JSON.stringify(order.tickets)).toBeDefined();
  return code ?? '';
}

/** a 20-character code of the tickets' alphabet, made up: a terminal's code nobody sold yet */
export const madeCode = (): string => Array.from(crypto.getRandomValues(new Uint8Array(20)), (byte) => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[byte & 31]).join('');

/**
 * A hub as its terminals see it (the sync catalog, no allocations) and a terminal's sync key: started before the
 * file's tests and stopped after them. `options` adds to how the hub starts (a rate limit, say).
 */
export function hubWithSyncKey(options: Partial<EngineOptions> = {}): { readonly hub: TestEngine; readonly syncKey: string } {
  const file = catalogFile();
  let hub: TestEngine | undefined;
  let syncKey: string | undefined;
  beforeAll(async () => {
    hub = await startTestEngine({ catalogFile: file.path, demo: false, allocations: false, ...options });
    syncKey = await hub.createKey(SYNC_SCOPES);
  });
  afterAll(async () => {
    await hub?.close();
    file.remove();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the hub is started in beforeAll: use it inside a test');
    return value;
  };
  return {
    get hub() {
      return started(hub);
    },
    get syncKey() {
      return started(syncKey);
    },
  };
}
