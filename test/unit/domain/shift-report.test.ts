import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldShiftReport, type ReportEntry } from '../../../engine/domain/shift-report';

/** The shift report's fold (contract §14, engine/domain/shift-report.ts): examples, then a property. */

const eur = (amount: number) => ({ amount, currency: 'EUR' });
const usd = (amount: number) => ({ amount, currency: 'USD' });

const sale = (payments: { method: string; amount: { amount: number; currency: string } }[], baseTotal: number, events = [{ eventId: 'ev', name: 'Event', tickets: 1, total: eur(baseTotal) }]): ReportEntry => ({
  kind: 'order',
  data: { baseTotal: eur(baseTotal), payments, events },
});
const cancellation = (refunds: { method: string; amount: { amount: number; currency: string } }[], baseTotal: number): ReportEntry => ({
  kind: 'cancellation',
  data: { baseTotal: eur(baseTotal), refunds },
});

describe('foldShiftReport', () => {
  it('an empty shift expects its float', () => {
    const report = foldShiftReport(eur(10_000), [{ kind: 'other' }]);
    expect(report.orders).toEqual({ count: 0, total: eur(0) });
    expect(report.cancellations).toEqual({ count: 0, total: eur(0) });
    expect(report.byMethod).toEqual([]);
    expect(report.byEvent).toEqual([]);
    expect(report.cash).toEqual({ openingFloat: eur(10_000), sales: eur(0), refunds: eur(0), payIns: eur(0), payOuts: eur(0), expected: eur(10_000) });
  });

  it('counts cash, card, a gift card + cash split, a refund, movements and a sale in another currency', () => {
    const report = foldShiftReport(eur(5_000), [
      sale([{ method: 'cash', amount: eur(3_900) }], 3_900),
      sale([{ method: 'card', amount: eur(2_900) }], 2_900),
      sale([{ method: 'giftCard', amount: eur(2_000) }, { method: 'giftCard', amount: eur(500) }, { method: 'cash', amount: eur(1_400) }], 3_900,
        [{ eventId: 'other', name: 'Other', tickets: 2, total: eur(3_900) }]),
      sale([{ method: 'cash', amount: usd(4_222) }], 3_900),
      cancellation([{ method: 'cash', amount: eur(3_900) }], 3_900),
      { kind: 'payIn', amount: eur(1_000) },
      { kind: 'payOut', amount: eur(700) },
    ]);
    expect(report.orders).toEqual({ count: 4, total: eur(14_600) });
    expect(report.cancellations).toEqual({ count: 1, total: eur(3_900) });
    expect(report.byMethod).toEqual([
      { method: 'cash', currency: 'EUR', count: 2, total: eur(5_300) },
      { method: 'card', currency: 'EUR', count: 1, total: eur(2_900) },
      // two cards of one order: one order paid by gift card
      { method: 'giftCard', currency: 'EUR', count: 1, total: eur(2_500) },
      { method: 'cash', currency: 'USD', count: 1, total: usd(4_222) },
    ]);
    expect(report.byEvent).toEqual([
      { eventId: 'ev', name: 'Event', tickets: 3, total: eur(10_700) },
      { eventId: 'other', name: 'Other', tickets: 2, total: eur(3_900) },
    ]);
    // USD cash is not in the EUR drawer
    expect(report.cash).toEqual({ openingFloat: eur(5_000), sales: eur(5_300), refunds: eur(3_900), payIns: eur(1_000), payOuts: eur(700), expected: eur(6_700) });
  });

  it('expected = float + cash sales − cash refunds + pay-ins − pay-outs, whatever the sequence (property)', () => {
    const money = fc.integer({ min: 0, max: 1_000_000 });
    const method = fc.constantFrom('cash', 'card', 'giftCard', 'external', 'none');
    const currency = fc.constantFrom('EUR', 'EUR', 'EUR', 'USD');
    const part = fc.record({ method, amount: fc.record({ amount: money, currency }) });
    const entry: fc.Arbitrary<ReportEntry> = fc.oneof(
      fc.record({ kind: fc.constant('order' as const), data: fc.record({ baseTotal: money.map(eur), payments: fc.array(part, { maxLength: 4 }), events: fc.array(fc.record({ eventId: fc.constantFrom('a', 'b', 'c'), name: fc.constant('E'), tickets: fc.integer({ min: 0, max: 10 }), total: money.map(eur) }), { maxLength: 3 }) }) }),
      fc.record({ kind: fc.constant('cancellation' as const), data: fc.record({ baseTotal: money.map(eur), refunds: fc.array(part, { maxLength: 3 }) }) }),
      fc.record({ kind: fc.constantFrom('payIn' as const, 'payOut' as const), amount: money.map(eur) }),
      fc.constant({ kind: 'other' as const }),
    );
    fc.assert(
      fc.property(money, fc.array(entry, { maxLength: 60 }), (float, entries) => {
        // the model: a plain walk over the entries, written apart from the fold
        let drawer = float;
        let sales = 0;
        let orders = 0;
        const perMethod = new Map<string, number>();
        for (const e of entries) {
          if (e.kind === 'order') {
            orders += e.data.baseTotal.amount;
            for (const p of e.data.payments) {
              if (p.method === 'cash' && p.amount.currency === 'EUR') {
                drawer += p.amount.amount;
                sales += p.amount.amount;
              }
              const key = `${p.amount.currency} ${p.method}`;
              perMethod.set(key, (perMethod.get(key) ?? 0) + p.amount.amount);
            }
          } else if (e.kind === 'cancellation') {
            for (const p of e.data.refunds) if (p.method === 'cash' && p.amount.currency === 'EUR') drawer -= p.amount.amount;
          } else if (e.kind === 'payIn') drawer += e.amount.amount;
          else if (e.kind === 'payOut') drawer -= e.amount.amount;
        }
        const report = foldShiftReport(eur(float), entries);
        const { cash } = report;
        expect(cash.expected.amount).toBe(drawer);
        expect(cash.expected.amount).toBe(cash.openingFloat.amount + cash.sales.amount - cash.refunds.amount + cash.payIns.amount - cash.payOuts.amount);
        expect(cash.sales.amount).toBe(sales);
        expect(report.orders.total.amount).toBe(orders);
        expect(report.orders.count).toBe(entries.filter((e) => e.kind === 'order').length);
        expect(new Map(report.byMethod.map((row) => [`${row.currency} ${row.method}`, row.total.amount]))).toEqual(perMethod);
        // base-currency rows first
        const firstOther = report.byMethod.findIndex((row) => row.currency !== 'EUR');
        if (firstOther !== -1) expect(report.byMethod.slice(firstOther).every((row) => row.currency !== 'EUR')).toBe(true);
        for (const row of report.byMethod) expect(row.total.currency).toBe(row.currency);
      }),
      { numRuns: 300 },
    );
  });
});
