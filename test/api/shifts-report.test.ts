import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { parts, sellGiftCard } from '../helpers/gift-cards';
import { card, cash, checkout, eur, orderOf, type Order } from '../helpers/orders';
import { closeShift, moveCash, openShift, reportOf, type ShiftReport } from '../helpers/shifts';

/**
 * The arithmetic of the shift report (contract §14) on the demo catalog (base currency EUR; the concert's adult
 * standing place €39, student €29): cash, card, a gift card bought by card, a gift card + cash split, a sale in
 * USD cash, a refund in this shift of an order sold in the shift before, pay-in and pay-out; the Z report frozen at
 * the close and never changed by what comes after.
 */
describe('the shift report', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(async () => {
    await engine.close();
  });

  const sell = async (items: Parameters<typeof createCart>[1], payment: Parameters<typeof checkout>[3], currency?: string): Promise<Order> => {
    const cart = await createCart(engine, items, currency);
    return orderOf(await checkout(engine, cart.id, cart.total, payment));
  };

  it('counts every sale, refund and movement of the shift; the Z report never changes afterwards', async () => {
    // shift A: one cash sale, closed
    const a = await openShift(engine, eur(5_000));
    const earlier = await sell([concert(1)], cash());
    const zA = await closeShift(engine, a.id, eur(8_900));
    expect(zA).toMatchObject({ zNumber: 1, expected: eur(8_900), difference: eur(0) });
    const reportA = await reportOf(engine, a.id);
    expect(reportA).toMatchObject({ kind: 'Z', orders: { count: 1, total: eur(3_900) }, cash: { sales: eur(3_900), expected: eur(8_900) } });

    // shift B
    const b = await openShift(engine, eur(10_000), 'Bea');
    const cashSale = await sell([concert(2)], cash(eur(10_000)));
    expect(cashSale.payment).toMatchObject({ amount: eur(7_800), tendered: eur(10_000), change: eur(2_200) });
    await sell([concert(1, 'standing-student')], card());
    const { code } = await sellGiftCard(engine, 'gift-25');
    const split = await sell([concert(2)], { method: 'cash', giftCards: parts([code]) });
    expect(split.payment).toMatchObject({ method: 'cash', amount: eur(5_300) });
    const dollars = await sell([concert(1)], cash(), 'USD');
    expect(dollars.total.currency).toBe('USD');
    // the order of shift A, refunded now: it counts in shift B, the shift open when the cash leaves the drawer
    expect((await engine.request<{ data: Order }>('POST', `/orders/${earlier.id}/cancel`)).body.data.status).toBe('cancelled');
    await moveCash(engine, b.id, 'payIn', eur(2_000), 'change from the bank');
    await moveCash(engine, b.id, 'payOut', eur(1_000), 'taxi for the band');

    const x = await reportOf(engine, b.id);
    expect(x.kind).toBe('X');
    expect(x.shift).toMatchObject({ id: b.id, number: 2, status: 'open', staff: 'Bea' });
    // gross sales: 78 + 29 + 25 (the gift card) + 78 + 39 (the USD sale at its base total)
    expect(x.orders).toEqual({ count: 5, total: eur(24_900) });
    expect(x.cancellations).toEqual({ count: 1, total: eur(3_900) });
    expect(x.byMethod).toEqual([
      { method: 'cash', currency: 'EUR', count: 2, total: eur(13_100) },
      { method: 'card', currency: 'EUR', count: 2, total: eur(5_400) },
      { method: 'giftCard', currency: 'EUR', count: 1, total: eur(2_500) },
      { method: 'cash', currency: 'USD', count: 1, total: dollars.total },
    ]);
    expect(x.byEvent).toEqual([{ eventId: cashSale.event?.id, name: cashSale.event?.name, tickets: 6, total: eur(22_400) }]);
    // the drawer: 100 + 131 − 39 + 20 − 10 (the dollars are counted apart)
    expect(x.cash).toEqual({ openingFloat: eur(10_000), sales: eur(13_100), refunds: eur(3_900), payIns: eur(2_000), payOuts: eur(1_000), expected: eur(20_200) });

    const closed = await closeShift(engine, b.id, eur(20_000), 'two euros short');
    expect(closed).toMatchObject({ zNumber: 2, expected: eur(20_200), counted: eur(20_000), difference: eur(-200), note: 'two euros short' });
    const zB = await reportOf(engine, b.id);
    expect(zB).toEqual({ ...x, kind: 'Z', shift: closed });

    // later: sales with no shift open, a refund of a shift-B order, another shift — neither Z report moves
    await sell([concert(1)], cash());
    await engine.request('POST', `/orders/${cashSale.id}/cancel`);
    const c = await openShift(engine, eur(0));
    await sell([concert(1)], cash());
    expect(await reportOf(engine, a.id)).toEqual(reportA);
    expect(await reportOf(engine, b.id)).toEqual(zB);
    const xC: ShiftReport = await reportOf(engine, c.id);
    expect(xC).toMatchObject({ orders: { count: 1, total: eur(3_900) }, cancellations: { count: 0 }, cash: { expected: eur(3_900) } });
    await closeShift(engine, c.id, eur(3_900));
  });
});
