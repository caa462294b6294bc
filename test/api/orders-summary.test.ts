import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { cash, expectError, placeOrder } from '../helpers/orders';

/** GET /orders/summary: the orders of a window added up per currency, for the box office's "today's sales". */

interface CurrencySummary {
  currency: string;
  orders: number;
  total: { amount: number; currency: string };
  cancelled: { orders: number; total: { amount: number; currency: string } };
  net: { amount: number; currency: string };
}
interface Summary {
  from: string;
  to: string;
  currencies: CurrencySummary[];
}

// The venue's day (Europe/Berlin, UTC+1 in November): 26 November 2026 runs from 25 Nov 23:00 UTC to 26 Nov 23:00 UTC.
const DAY = { from: '2026-11-26T00:00:00+01:00', to: '2026-11-27T00:00:00+01:00' };
const summaryPath = (query: Record<string, string>) => `/orders/summary?${new URLSearchParams(query).toString()}`;

describe('GET /orders/summary', () => {
  let engine: TestEngine;
  let clock = Date.parse('2026-11-25T22:59:59.999Z');
  let cancelledId = '';
  beforeAll(async () => {
    engine = await startTestEngine({ now: () => clock });
    // The evening before, on the venue's clock: 23:59:59.999 — not that day.
    const before = await createCart(engine, [concert(1)]);
    await placeOrder(engine, before.id, before.total, cash());
    clock = Date.parse('2026-11-25T23:00:00.000Z'); // midnight in Berlin: the first instant of the day
    const first = await createCart(engine, [concert(2)]); // 2 × €39.00
    await placeOrder(engine, first.id, first.total, cash());
    clock = Date.parse('2026-11-26T12:00:00Z');
    const second = await createCart(engine, [concert(1, 'standing-student')]); // €29.00, cancelled below
    cancelledId = (await placeOrder(engine, second.id, second.total)).id;
    const yen = await createCart(engine, [concert(1)], 'JPY'); // €39.00 × 162.35 = ¥6,332 (6331.65)
    await placeOrder(engine, yen.id, yen.total);
    clock = Date.parse('2026-11-26T22:59:59.999Z'); // 23:59:59.999 in Berlin: still the day
    const late = await createCart(engine, [concert(1, 'standing-student', 'brass-2027-03-13')]);
    await placeOrder(engine, late.id, late.total, cash());
    clock = Date.parse('2026-11-26T23:00:00Z'); // the next day
    const next = await createCart(engine, [concert(3)]);
    await placeOrder(engine, next.id, next.total, cash());
    clock = Date.parse('2026-11-26T23:30:00Z');
    expect((await engine.request('POST', `/orders/${cancelledId}/cancel`)).status).toBe(200);
  });
  afterAll(() => engine.close());

  it('adds up the day per currency, never across currencies, with what was cancelled and what stays sold', async () => {
    const response = await engine.request<{ data: Summary }>('GET', summaryPath(DAY), { key: engine.keys.ordersRead });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toEqual({
      from: '2026-11-25T23:00:00.000Z',
      to: '2026-11-26T23:00:00.000Z',
      currencies: [
        {
          currency: 'EUR',
          // 7800 (2 adults) + 2900 (student, cancelled) + 2900 (student, 23:59) — not the evening before, not the next day
          orders: 3,
          total: { amount: 13600, currency: 'EUR' },
          cancelled: { orders: 1, total: { amount: 2900, currency: 'EUR' } },
          net: { amount: 10700, currency: 'EUR' },
        },
        {
          currency: 'JPY',
          orders: 1,
          total: { amount: 6332, currency: 'JPY' },
          cancelled: { orders: 0, total: { amount: 0, currency: 'JPY' } },
          net: { amount: 6332, currency: 'JPY' },
        },
      ],
    });
  });

  it("adds up only the caller's own orders unless it may see every order (orders:any), as GET /orders lists them", async () => {
    const stranger = await engine.createKey(['orders:read']);
    const own = await engine.request<{ data: Summary }>('GET', summaryPath(DAY), { key: stranger });
    expect(own.status).toBe(200);
    expect(own.body.data.currencies).toEqual([]);
    const everyOrder = await engine.createKey(['orders:read', 'orders:any']);
    const all = await engine.request<{ data: Summary }>('GET', summaryPath(DAY), { key: everyOrder });
    expect(all.body.data.currencies.map((row) => [row.currency, row.orders])).toEqual([['EUR', 3], ['JPY', 1]]);
  });

  it('answers an empty list for a window without orders', async () => {
    const response = await engine.request<{ data: Summary }>('GET', summaryPath({ from: '2026-11-20T00:00:00+01:00', to: '2026-11-21T00:00:00+01:00' }));
    expect(response.status).toBe(200);
    expect(response.body.data.currencies).toEqual([]);
  });

  it('answers 400 MISSING_REQUIRED_FIELD without from or to', async () => {
    expectError(await engine.request('GET', summaryPath({ to: DAY.to })), 400, 'MISSING_REQUIRED_FIELD', 'from');
    expectError(await engine.request('GET', summaryPath({ from: DAY.from })), 400, 'MISSING_REQUIRED_FIELD', 'to');
  });

  it('answers 400 INVALID_FIELD_VALUE for a date that is not an ISO 8601 date-time', async () => {
    const error = expectError(await engine.request('GET', summaryPath({ from: '26.11.2026', to: DAY.to })), 400, 'INVALID_FIELD_VALUE', 'from');
    expect(error.details).toMatchObject({ location: 'querystring', reason: 'format' });
  });

  it('answers 400 INVALID_FIELD_VALUE when to is not after from', async () => {
    const error = expectError(await engine.request('GET', summaryPath({ from: DAY.to, to: DAY.from })), 400, 'INVALID_FIELD_VALUE', 'to');
    expect(error.details).toMatchObject({ reason: 'empty_range' });
    expectError(await engine.request('GET', summaryPath({ from: DAY.from, to: DAY.from })), 400, 'INVALID_FIELD_VALUE', 'to');
  });

  it('answers 400 INVALID_FIELD_VALUE for an unknown query field', async () => {
    expectError(await engine.request('GET', summaryPath({ ...DAY, currency: 'EUR' })), 400, 'INVALID_FIELD_VALUE', 'currency');
  });

  it('answers 401 INVALID_API_KEY without a key and 403 INSUFFICIENT_PERMISSIONS without orders:read', async () => {
    expectError(await engine.request('GET', summaryPath(DAY), { key: null }), 401, 'INVALID_API_KEY');
    expectError(await engine.request('GET', summaryPath(DAY), { key: engine.keys.carts }), 403, 'INSUFFICIENT_PERMISSIONS');
  });
});
