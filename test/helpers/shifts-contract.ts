import { expect } from 'vitest';
import { concert, createCart, type ItemRequest, type Money } from './cart-assertions';
import { TEST_OWNER, type ApiResponse, type TestEngine } from './engine';
import { card, eur, expectError, ISO_TIMESTAMP, placeOrder, type Order, type PaymentRequest } from './orders';

/**
 * Shifts and the cash drawer (contract §14, the shared design of issue #25) as the contract tests read them:
 * the shift and report shapes, and request helpers for opening, moving cash, closing and selling. Written from
 * the contract alone: nothing here knows how the engine does it.
 */

/** A shift as POST /shifts, GET /shifts/current, GET /shifts and close answer it (under `data`). */
export interface Shift {
  id: string;
  number: number;
  status: 'open' | 'closed';
  openedAt: string;
  openingFloat: Money;
  staff?: string | null;
  closedAt?: string;
  zNumber?: number;
  expected?: Money;
  counted?: Money;
  difference?: Money;
  note?: string | null;
}

export interface MethodRow {
  method: string;
  count: number;
  total: Money;
}

export interface EventRow {
  eventId: string;
  name: string;
  tickets: number;
  total: Money;
}

export interface CashFigures {
  openingFloat: Money;
  sales: Money;
  refunds: Money;
  payIns: Money;
  payOuts: Money;
  expected: Money;
}

/** GET /shifts/{id}/report under `data` */
export interface ShiftReport {
  shift: Shift;
  orders: { count: number; total: Money };
  cancellations: { count: number; total: Money };
  byMethod: MethodRow[];
  byEvent: EventRow[];
  cash: CashFigures;
}

export interface ShiftsPage {
  data: Shift[];
  nextCursor?: string;
}

/** The base currency of the demo catalog's location (its first currency). */
export const BASE = 'EUR';

/** Prices of the demo catalog the shift tests sell (EUR, minor units). */
export const PRICE = { standingAdult: 3900, standingStudent: 2900, stallsFull: 4500 } as const;

/** The demo concert's event id and its English name. */
export const CONCERT_EVENT = 'midnight-brass';
/** The demo theatre play's event id. */
export const TEMPEST_EVENT = 'the-tempest';

/**
 * Stops the engine and starts it again on its data (a restart), then waits until it answers: the client's pooled
 * keep-alive sockets to the old server fail once ("other side closed"), a harness matter, not the engine's.
 */
export async function restart(engine: TestEngine): Promise<void> {
  await engine.stop();
  await engine.start();
  for (let attempt = 1; attempt <= 5; attempt++) {
    const status = await engine.request('GET', '/health').then((response) => response.status, () => 0);
    if (status === 200) return;
  }
  throw new Error('the engine does not answer after its restart');
}

/** A key of the till (same owner as the standard keys) with the scopes given. */
export function tillKey(engine: TestEngine, scopes: string[]): Promise<string> {
  return engine.createKey(scopes, { owner: TEST_OWNER });
}

/** POST /shifts, raw. */
export function postShift(engine: TestEngine, body: unknown, key?: string): Promise<ApiResponse> {
  return engine.request('POST', '/shifts', { body, ...(key !== undefined && { key }) });
}

/** Opens a shift with the float given (default €100) and expects 201 with an open shift. */
export async function openShift(engine: TestEngine, openingFloat: Money = eur(10000), staff?: string): Promise<Shift> {
  const response = await postShift(engine, { openingFloat, ...(staff !== undefined && { staff }) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const shift = (response.body as { data: Shift }).data;
  expect(shift.status).toBe('open');
  expect(shift.openedAt).toMatch(ISO_TIMESTAMP);
  expect(shift.openingFloat).toEqual(openingFloat);
  return shift;
}

/** GET /shifts/current, raw. */
export function getCurrent(engine: TestEngine, key?: string): Promise<ApiResponse> {
  return engine.request('GET', '/shifts/current', key === undefined ? {} : { key });
}

/** GET /shifts with a query string, raw. */
export function listShifts(engine: TestEngine, query = '', key?: string): Promise<ApiResponse<ShiftsPage>> {
  return engine.request<ShiftsPage>('GET', `/shifts${query}`, key === undefined ? {} : { key });
}

/** Every shift of this engine, newest first, following nextCursor (pages of `limit`). */
export async function allShifts(engine: TestEngine, limit = 2): Promise<Shift[]> {
  const shifts: Shift[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const response = await listShifts(engine, `?limit=${limit}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.length).toBeLessThanOrEqual(limit);
    shifts.push(...response.body.data);
    cursor = response.body.nextCursor;
    if (cursor === undefined) return shifts;
  }
  throw new Error('GET /shifts never ends');
}

/** GET /shifts/{id}/report, raw. */
export function getReport(engine: TestEngine, shiftId: string, key?: string): Promise<ApiResponse> {
  return engine.request('GET', `/shifts/${encodeURIComponent(shiftId)}/report`, key === undefined ? {} : { key });
}

/** The report of a shift, expecting 200. */
export async function reportOf(engine: TestEngine, shiftId: string): Promise<ShiftReport> {
  const response = await getReport(engine, shiftId);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { data: ShiftReport }).data;
}

/** The report's answer as the bytes on the wire (for "it never changes"). */
export async function reportBytes(engine: TestEngine, shiftId: string): Promise<string> {
  const response = await fetch(`${engine.url}/api/v3/shifts/${encodeURIComponent(shiftId)}/report`, { headers: { 'x-svc-api-key': engine.keys.admin } });
  expect(response.status).toBe(200);
  return response.text();
}

/** POST /shifts/{id}/cash-movements, raw. */
export function postMovement(engine: TestEngine, shiftId: string, body: unknown, key?: string): Promise<ApiResponse> {
  return engine.request('POST', `/shifts/${encodeURIComponent(shiftId)}/cash-movements`, { body, ...(key !== undefined && { key }) });
}

/** A pay-in or pay-out, expecting 201. */
export async function move(engine: TestEngine, shiftId: string, kind: 'payIn' | 'payOut', amount: Money, reason = `${kind} by the test`): Promise<void> {
  const response = await postMovement(engine, shiftId, { kind, amount, reason });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

/** POST /shifts/{id}/close, raw. */
export function postClose(engine: TestEngine, shiftId: string, body: unknown, key?: string): Promise<ApiResponse> {
  return engine.request('POST', `/shifts/${encodeURIComponent(shiftId)}/close`, { body, ...(key !== undefined && { key }) });
}

/** Closes a shift with the count given, expecting 200 and the closing fields of §14. */
export async function closeShift(engine: TestEngine, shiftId: string, counted: Money, note?: string): Promise<Shift> {
  const response = await postClose(engine, shiftId, { counted, ...(note !== undefined && { note }) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const shift = (response.body as { data: Shift }).data;
  expect(shift.id).toBe(shiftId);
  expect(shift.status).toBe('closed');
  expect(shift.closedAt).toMatch(ISO_TIMESTAMP);
  expect(shift.counted).toEqual(counted);
  return shift;
}

/** Sells `items` (default one adult standing place at the concert) paid as given, expecting 201. */
export async function sell(engine: TestEngine, payment: PaymentRequest = card(), items: ItemRequest[] = [concert(1)], currency?: string): Promise<Order> {
  const cart = await createCart(engine, items, currency);
  return placeOrder(engine, cart.id, cart.total, payment);
}

/** POST /orders/{id}/cancel, raw. */
export function postCancel(engine: TestEngine, orderId: string): Promise<ApiResponse> {
  return engine.request('POST', `/orders/${encodeURIComponent(orderId)}/cancel`);
}

/** Cancels an order, expecting 200 and status cancelled. */
export async function cancelOrder(engine: TestEngine, orderId: string): Promise<void> {
  const response = await postCancel(engine, orderId);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect((response.body as { data: { status: string } }).data.status).toBe('cancelled');
}

/** The error of a 409, expecting its code (CONFLICT_ERROR). */
export function conflict(response: ApiResponse, code: string): ReturnType<typeof expectError> {
  return expectError(response, 409, code);
}

/** Money in the base currency. */
export const base = (amount: number): Money => ({ amount, currency: BASE });

/** The cash figures of a report as numbers (minor units), each checked to be in the base currency. */
export function cashAmounts(report: ShiftReport): Record<keyof CashFigures, number> {
  const figures = report.cash;
  const out: Record<string, number> = {};
  for (const [name, money] of Object.entries(figures)) {
    expect(money.currency, `cash.${name}`).toBe(BASE);
    expect(Number.isInteger(money.amount), `cash.${name}`).toBe(true);
    out[name] = money.amount;
  }
  return {
    openingFloat: out.openingFloat ?? Number.NaN,
    sales: out.sales ?? Number.NaN,
    refunds: out.refunds ?? Number.NaN,
    payIns: out.payIns ?? Number.NaN,
    payOuts: out.payOuts ?? Number.NaN,
    expected: out.expected ?? Number.NaN,
  };
}

/** expected = openingFloat + sales − refunds + payIns − payOuts, on a report's cash figures. */
export function expectCashArithmetic(report: ShiftReport): void {
  const c = cashAmounts(report);
  expect(c.expected, JSON.stringify(report.cash)).toBe(c.openingFloat + c.sales - c.refunds + c.payIns - c.payOuts);
}

/** The byMethod row of a method and currency, or undefined. */
export function methodRow(report: ShiftReport, method: string, currency = BASE): MethodRow | undefined {
  return report.byMethod.find((row) => row.method === method && row.total.currency === currency);
}
