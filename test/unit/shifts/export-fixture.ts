import type { ShiftReport } from '../../../engine/contract/shift';
import type { JournalEntry } from '../../../engine/domain/journal';

/** A closed shift with two sales (one split cash + gift card, one in CHF by card), a cancellation and two movements. */

const eur = (amount: number) => ({ amount, currency: 'EUR' });
const SHIFT = 'shf_fixture';

export const fixtureReport: ShiftReport = {
  kind: 'Z',
  shift: {
    id: SHIFT, number: 3, status: 'closed', openedAt: '2027-03-12T16:00:00.000Z', openingFloat: eur(10000), staff: 'Ana, "front desk"',
    closedAt: '2027-03-12T23:10:00.000Z', zNumber: 2, expected: eur(12200), counted: eur(12150), difference: eur(-50), note: 'coins\r\nshort',
  },
  orders: { count: 2, total: eur(5800) },
  cancellations: { count: 1, total: eur(1200) },
  byMethod: [
    { method: 'cash', currency: 'EUR', count: 1, total: eur(2200) },
    { method: 'giftCard', currency: 'EUR', count: 1, total: eur(500) },
    { method: 'card', currency: 'CHF', count: 1, total: { amount: 3000, currency: 'CHF' } },
  ],
  byEvent: [{ eventId: 'evt_brass', name: 'Brass, Strings & Co', tickets: 5, total: eur(5800) }],
  cash: { openingFloat: eur(10000), sales: eur(2200), refunds: eur(1200), payIns: eur(2000), payOuts: eur(800), expected: eur(12200) },
};

let previous = '0'.repeat(64);
const entry = (seq: number, kind: string, ref: string, amount: { amount: number; currency: string } | undefined, data: Record<string, unknown>): JournalEntry => {
  const hash = `${seq.toString(16).padStart(2, '0')}${'ab'.repeat(31)}`;
  const made = { seq, at: `2027-03-12T2${seq % 4}:00:00.000Z`, kind, ref, ...(amount && { amount }), data: { shiftId: SHIFT, ...data }, prevHash: previous, hash };
  previous = hash;
  return made;
};

export const fixtureEntries: JournalEntry[] = [
  entry(11, 'shiftOpened', SHIFT, eur(10000), { number: 3, staff: 'Ana' }),
  entry(12, 'order', 'ord_1', eur(2700), {
    orderId: 'ord_1', currency: 'EUR', total: eur(2700), baseTotal: eur(2700),
    payments: [{ method: 'giftCard', amount: eur(500) }, { method: 'cash', amount: eur(2200) }],
    events: [{ eventId: 'evt_brass', name: 'Brass, Strings & Co', tickets: 3, total: eur(2700) }],
  }),
  entry(13, 'payIn', 'mov_1', eur(2000), { reason: 'change, from the safe' }),
  entry(14, 'order', 'ord_2', { amount: 3000, currency: 'CHF' }, {
    orderId: 'ord_2', currency: 'CHF', total: { amount: 3000, currency: 'CHF' }, baseTotal: eur(3100),
    payments: [{ method: 'card', amount: { amount: 3000, currency: 'CHF' } }],
    events: [{ eventId: 'evt_brass', name: 'Brass, Strings & Co', tickets: 2, total: eur(3100) }],
  }),
  entry(15, 'cancellation', 'ord_0', eur(1200), { orderId: 'ord_0', refunds: [{ method: 'cash', amount: eur(1200) }], baseTotal: eur(1200) }),
  entry(16, 'payOut', 'mov_2', eur(800), { reason: '=SUM(A1) "tip"' }),
  entry(17, 'shiftClosed', SHIFT, eur(12150), { zNumber: 2, expected: eur(12200), counted: eur(12150), difference: eur(-50), note: 'coins', report: { orders: { count: 2 } } }),
];
