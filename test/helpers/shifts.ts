import { expect } from 'vitest';
import type { Money } from './cart-assertions';
import type { ApiResponse, TestEngine } from './engine';

/** Shapes of contract §14 as the shift tests read them, and request helpers (engine/contract/shift.ts). */

export interface Shift {
  id: string;
  number: number;
  status: 'open' | 'closed';
  openedAt: string;
  openingFloat: Money;
  staff?: string;
  closedAt?: string;
  zNumber?: number;
  expected?: Money;
  counted?: Money;
  difference?: Money;
  note?: string;
}

export interface ShiftReport {
  kind: 'X' | 'Z';
  shift: Shift;
  orders: { count: number; total: Money };
  cancellations: { count: number; total: Money };
  byMethod: { method: string; currency: string; count: number; total: Money }[];
  byEvent: { eventId: string; name: string; tickets: number; total: Money }[];
  cash: { openingFloat: Money; sales: Money; refunds: Money; payIns: Money; payOuts: Money; expected: Money };
}

export interface CashMovement {
  id: string;
  shiftId: string;
  kind: 'payIn' | 'payOut';
  amount: Money;
  reason: string;
  at: string;
}

/** the data of a success answer, the status asserted */
export function dataOf<T>(response: ApiResponse, status: number): T {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  return (response.body as { data: T }).data;
}

export const postShift = (engine: TestEngine, body: unknown, key?: string) => engine.request('POST', '/shifts', { body, ...(key !== undefined && { key }) });

/** POST /shifts, expecting 201 */
export async function openShift(engine: TestEngine, openingFloat: Money, staff?: string): Promise<Shift> {
  return dataOf<Shift>(await postShift(engine, { openingFloat, ...(staff !== undefined && { staff }) }), 201);
}

export const postMovement = (engine: TestEngine, shiftId: string, body: unknown) => engine.request('POST', `/shifts/${shiftId}/cash-movements`, { body });

/** POST /shifts/{id}/cash-movements, expecting 201 */
export async function moveCash(engine: TestEngine, shiftId: string, kind: 'payIn' | 'payOut', amount: Money, reason = 'change'): Promise<CashMovement> {
  return dataOf<CashMovement>(await postMovement(engine, shiftId, { kind, amount, reason }), 201);
}

export const getReport = (engine: TestEngine, shiftId: string) => engine.request('GET', `/shifts/${shiftId}/report`, { key: engine.keys.ordersRead });

/** GET /shifts/{id}/report, expecting 200 */
export async function reportOf(engine: TestEngine, shiftId: string): Promise<ShiftReport> {
  return dataOf<ShiftReport>(await getReport(engine, shiftId), 200);
}

export const postClose = (engine: TestEngine, shiftId: string, body: unknown) => engine.request('POST', `/shifts/${shiftId}/close`, { body });

/** POST /shifts/{id}/close, expecting 200 */
export async function closeShift(engine: TestEngine, shiftId: string, counted: Money, note?: string): Promise<Shift> {
  return dataOf<Shift>(await postClose(engine, shiftId, { counted, ...(note !== undefined && { note }) }), 200);
}
