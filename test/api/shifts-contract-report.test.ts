import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../engine/catalog/demo';
import { concert, createCart, seat } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { giftCardOf, parts, payWithGiftCards, sellGiftCard, splitOrderOf } from '../helpers/gift-cards';
import { card, cash, eur, type Order } from '../helpers/orders';
import {
  base,
  BASE,
  cancelOrder,
  CONCERT_EVENT,
  closeShift,
  expectCashArithmetic,
  methodRow,
  move,
  openShift,
  PRICE,
  reportBytes,
  reportOf,
  restart,
  sell,
  TEMPEST_EVENT,
  type Shift,
  type ShiftReport,
} from '../helpers/shifts-contract';

/**
 * Contract §14, what a shift's report counts: every order made while it is open (gross, by method and currency,
 * by event), every cancellation made while it is open (whichever shift sold the order), the cash arithmetic
 * (float + cash sales − cash refunds + pay-ins − pay-outs, with the cash part of a gift-card split and what was
 * paid, not tendered), sales in another currency per currency in byMethod; and the Z report of a closed shift
 * that never changes, byte for byte, through later sales, refunds and a restart.
 */

let engine: TestEngine;
let giftCode = '';
/** sold with no shift open: counts in no shift */
let beforeAnyShift: Order;
let first: Shift;
/** what the tests need of an order they sold */
type Sold = Pick<Order, 'id' | 'total' | 'currency'>;
const sold: Record<'cashTendered' | 'cardTwo' | 'split' | 'usdCard' | 'usdCash' | 'seat', Sold | undefined> = {
  cashTendered: undefined,
  cardTwo: undefined,
  split: undefined,
  usdCard: undefined,
  usdCash: undefined,
  seat: undefined,
};
const orderOfSale = (name: keyof typeof sold): Sold => {
  const order = sold[name];
  if (order === undefined) throw new Error(`${name} was not sold`);
  return order;
};

beforeAll(async () => {
  engine = await startTestEngine();
  ({ code: giftCode } = await sellGiftCard(engine, 'gift-50'));
  beforeAnyShift = await sell(engine, cash());
});
afterAll(async () => {
  await engine.close();
});

describe('§14 the report of an open shift (X) counts what is made in it', () => {
  it('a fresh shift: nothing counted, the float expected', async () => {
    first = await openShift(engine, eur(10000), 'Grace');
    const report = await reportOf(engine, first.id);
    expect(report.shift).toMatchObject({ id: first.id, number: 1, status: 'open', openingFloat: base(10000) });
    expect(report.orders).toEqual({ count: 0, total: base(0) });
    expect(report.cancellations).toEqual({ count: 0, total: base(0) });
    expect(report.byMethod).toEqual([]);
    expect(report.byEvent).toEqual([]);
    expect(report.cash).toEqual({ openingFloat: base(10000), sales: base(0), refunds: base(0), payIns: base(0), payOuts: base(0), expected: base(10000) });
  });

  it('cash counts what was paid, not what was tendered', async () => {
    sold.cashTendered = await sell(engine, cash(eur(5000)));
    expect(sold.cashTendered.total).toEqual(eur(PRICE.standingAdult));
    const report = await reportOf(engine, first.id);
    expect(report.cash.sales).toEqual(base(PRICE.standingAdult));
    expect(report.cash.expected).toEqual(base(10000 + PRICE.standingAdult));
    expect(report.orders).toEqual({ count: 1, total: base(PRICE.standingAdult) });
  });

  it('a gift card with a cash remainder: the card part in byMethod giftCard, only the remainder moves the drawer', async () => {
    sold.cardTwo = await sell(engine, card(), [concert(2)]);
    const cart = await createCart(engine, [concert(1)]);
    sold.split = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'cash', giftCards: parts([giftCode, 2500]) }));
    expect((await giftCardOf(engine, giftCode)).balance).toEqual(eur(2500));
    const report = await reportOf(engine, first.id);
    expect(methodRow(report, 'giftCard')).toMatchObject({ count: 1, total: base(2500) });
    expect(methodRow(report, 'cash')).toMatchObject({ count: 2, total: base(PRICE.standingAdult + PRICE.standingAdult - 2500) });
    expect(methodRow(report, 'card')).toMatchObject({ count: 1, total: base(2 * PRICE.standingAdult) });
    expect(report.cash.sales).toEqual(base(2 * PRICE.standingAdult - 2500));
    expectCashArithmetic(report);
  });

  it('a sale in another currency counts at the amount paid, in its own byMethod row; base-currency rows come first', async () => {
    sold.usdCard = await sell(engine, card(), [concert(1)], 'USD');
    sold.usdCash = await sell(engine, cash(), [concert(1)], 'USD');
    expect(sold.usdCard.currency).toBe('USD');
    const usd = sold.usdCard.total.amount;
    const report = await reportOf(engine, first.id);
    expect(methodRow(report, 'card', 'USD')).toMatchObject({ count: 1, total: { amount: usd, currency: 'USD' } });
    expect(methodRow(report, 'cash', 'USD')).toMatchObject({ count: 1, total: { amount: sold.usdCash.total.amount, currency: 'USD' } });
    // cash in another currency is not in the base-currency drawer figures
    expect(report.cash.sales).toEqual(base(2 * PRICE.standingAdult - 2500));
    const currencies = report.byMethod.map((row) => row.total.currency);
    expect(currencies.lastIndexOf(BASE), JSON.stringify(report.byMethod)).toBeLessThan(currencies.indexOf('USD'));
  });

  it('orders, byMethod and byEvent count every sale (gross); cancellations the refunds; the cash arithmetic holds', async () => {
    sold.seat = await sell(engine, card(), [seat('A1')]);
    await move(engine, first.id, 'payIn', eur(2000), 'coins from the bank');
    await move(engine, first.id, 'payOut', eur(500), 'window cleaner');
    await cancelOrder(engine, orderOfSale('cardTwo').id); // sold in this shift, by card
    await cancelOrder(engine, beforeAnyShift.id); // sold before any shift, cash: refunded from this drawer
    const report = await reportOf(engine, first.id);
    const concertBase = 6 * PRICE.standingAdult; // 1 + 2 + 1 + 1 + 1 places, at base prices
    expect(report.orders).toEqual({ count: 6, total: base(concertBase + PRICE.stallsFull) });
    expect(report.cancellations).toEqual({ count: 2, total: base(2 * PRICE.standingAdult + PRICE.standingAdult) });
    const events = [...report.byEvent].sort((a, b) => a.eventId.localeCompare(b.eventId));
    expect(events).toMatchObject([
      { eventId: CONCERT_EVENT, tickets: 6, total: base(concertBase) },
      { eventId: TEMPEST_EVENT, tickets: 1, total: base(PRICE.stallsFull) },
    ]);
    for (const row of events) expect(typeof row.name === 'string' && row.name.length > 0, JSON.stringify(row)).toBe(true);
    expect(methodRow(report, 'card')).toMatchObject({ count: 2, total: base(2 * PRICE.standingAdult + PRICE.stallsFull) });
    expect(methodRow(report, 'cash')).toMatchObject({ count: 2, total: base(2 * PRICE.standingAdult - 2500) });
    expect(methodRow(report, 'giftCard')).toMatchObject({ count: 1, total: base(2500) });
    expect(report.byMethod).toHaveLength(5);
    const sales = 2 * PRICE.standingAdult - 2500;
    expect(report.cash).toEqual({ openingFloat: base(10000), sales: base(sales), refunds: base(PRICE.standingAdult), payIns: base(2000), payOuts: base(500), expected: base(10000 + sales - PRICE.standingAdult + 2000 - 500) });
    expectCashArithmetic(report);
  });
});

describe('§14 the Z report of a closed shift never changes', () => {
  let lastX: ShiftReport;
  let frozen = '';
  let second: Shift;

  it('close: expected is the report’s, difference counted − expected; the Z report has the X report’s figures', async () => {
    lastX = await reportOf(engine, first.id);
    const expected = lastX.cash.expected.amount;
    const closed = await closeShift(engine, first.id, eur(expected - 120));
    expect(closed).toMatchObject({ zNumber: 1, expected: base(expected), counted: base(expected - 120), difference: base(-120) });
    const z = await reportOf(engine, first.id);
    expect(z.shift).toMatchObject({ id: first.id, status: 'closed', zNumber: 1, expected: base(expected), counted: base(expected - 120), difference: base(-120) });
    const figures = (report: ShiftReport) => ({ orders: report.orders, cancellations: report.cancellations, byMethod: report.byMethod, byEvent: report.byEvent, cash: report.cash });
    expect(figures(z)).toEqual(figures(lastX));
    frozen = await reportBytes(engine, first.id);
  });

  it('refunds made in the next shift count there (whichever shift sold the order), not in the closed one', async () => {
    second = await openShift(engine, eur(10000));
    await cancelOrder(engine, orderOfSale('cashTendered').id); // cash, sold in the first shift
    await cancelOrder(engine, orderOfSale('split').id); // gift card + cash: only the cash part leaves the drawer
    await cancelOrder(engine, orderOfSale('usdCash').id); // dollars: not from the base-currency drawer
    expect((await giftCardOf(engine, giftCode)).balance).toEqual(eur(5000));
    const report = await reportOf(engine, second.id);
    expect(report.orders).toEqual({ count: 0, total: base(0) });
    expect(report.byMethod).toEqual([]);
    expect(report.byEvent).toEqual([]);
    expect(report.cancellations).toEqual({ count: 3, total: base(3 * PRICE.standingAdult) });
    const cashBack = PRICE.standingAdult + (PRICE.standingAdult - 2500);
    expect(report.cash).toEqual({ openingFloat: base(10000), sales: base(0), refunds: base(cashBack), payIns: base(0), payOuts: base(0), expected: base(10000 - cashBack) });
    expect(await reportBytes(engine, first.id)).toBe(frozen);
  });

  it('a renamed event and a changed price (the catalog imported again) leave the Z report byte for byte as it was', async () => {
    const catalog = demoCatalog();
    const renamed = {
      ...catalog,
      events: catalog.events.map((event) => (event.id === CONCERT_EVENT ? { ...event, name: 'Midnight Brass (renamed after the close)' } : event)),
    };
    const put = await engine.request('PUT', '/catalog', { body: renamed });
    expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
    const events = await engine.request<{ data: { id: string; name: string }[] }>('GET', '/events');
    expect(events.body.data.find((event) => event.id === CONCERT_EVENT)?.name).toBe('Midnight Brass (renamed after the close)');
    expect(await reportBytes(engine, first.id)).toBe(frozen);
  });

  it('sales in the next shift, a restart, and a sale with no shift open leave the Z report byte for byte as it was', async () => {
    await sell(engine, cash());
    await sell(engine, card());
    expect((await reportOf(engine, second.id)).orders.count).toBe(2);
    expect(await reportBytes(engine, first.id)).toBe(frozen);
    await closeShift(engine, second.id, eur(0));
    await sell(engine, cash());
    await restart(engine);
    expect(await reportBytes(engine, first.id)).toBe(frozen);
  });
});
