import type { Order } from '../../engine/contract/order';

/** One fixed order (fixed clock, fixed codes) for the encoding tests and their golden files. */
export function fixedOrder(payment: 'cash' | 'card' = 'cash'): Order {
  return {
    id: 'ord_fixed000000000000001',
    cartId: '00000000-0000-4000-8000-000000000001',
    status: 'confirmed',
    createdAt: '2027-03-01T17:45:00.000Z',
    currency: 'EUR',
    total: { amount: 7820, currency: 'EUR' },
    items: [
      { id: 'itm_adult', type: 'admission', name: 'Adult', quantity: 1, unitPrice: { amount: 3900, currency: 'EUR' }, total: { amount: 3900, currency: 'EUR' }, occurrenceId: 'tempest-2027-04-02', inventoryItemId: 'A1', priceOptionId: 'adult' },
      { id: 'itm_student', type: 'admission', name: 'Student', quantity: 1, unitPrice: { amount: 3900, currency: 'EUR' }, total: { amount: 3900, currency: 'EUR' }, occurrenceId: 'tempest-2027-04-02', inventoryItemId: 'A2', priceOptionId: 'student' },
      { id: 'itm_parking', type: 'extra', name: 'Parking', quantity: 1, unitPrice: { amount: 800, currency: 'EUR' }, total: { amount: 800, currency: 'EUR' }, extraId: 'parking' },
    ],
    receiptLines: [
      { type: 'admission', label: 'Adult × 1', sign: 1, amount: { amount: 3900, currency: 'EUR' } },
      { type: 'admission', label: 'Student × 1', sign: 1, amount: { amount: 3900, currency: 'EUR' } },
      { type: 'extra', label: 'Parking × 1', sign: 1, amount: { amount: 800, currency: 'EUR' } },
      { type: 'voucher', label: 'Voucher WELCOME10', sign: -1, amount: { amount: 780, currency: 'EUR' } },
    ],
    payment:
      payment === 'cash'
        ? { method: 'cash', status: 'captured', amount: { amount: 7820, currency: 'EUR' }, tendered: { amount: 10000, currency: 'EUR' }, change: { amount: 2180, currency: 'EUR' } }
        : { method: 'card', status: 'captured', amount: { amount: 7820, currency: 'EUR' } },
    event: {
      id: 'tempest',
      name: 'The Tempest',
      occurrenceId: 'tempest-2027-04-02',
      startsAt: '2027-04-02T18:00:00Z',
      location: { id: 'globe', name: 'Théâtre du Globe' },
    },
    tickets: [
      { id: 'tkt_1', itemId: 'itm_adult', code: 'KX7Q-2M9D', area: 'Stalls', seat: 'Row A, Seat 1' },
      { id: 'tkt_2', itemId: 'itm_student', code: 'PL3V-8WZR', area: 'Stalls', seat: 'Row A, Seat 2' },
    ],
    giftCards: [],
  };
}

/**
 * The fixed order with `count` tickets (fixed codes, seats and areas that vary, two price lines): a large order
 * whose printout is pinned by golden files, so rendering it in slices is shown to write the same bytes.
 */
export function largeFixedOrder(count: number, payment: 'cash' | 'card' = 'cash'): Order {
  const order = fixedOrder(payment);
  const tickets = Array.from({ length: count }, (_, index) => ({
    id: `tkt_${index + 1}`,
    itemId: index % 3 === 0 ? 'itm_student' : 'itm_adult',
    code: `K${String(index + 1).padStart(5, '0')}Q2M9DPL3V8WZRX`.slice(0, 20),
    ...(index % 4 !== 3 && { area: index % 2 === 0 ? 'Stalls' : 'Balcon d’honneur' }),
    ...(index % 5 !== 4 && { seat: `Row ${String.fromCharCode(65 + (index % 26))}, Seat ${index + 1}` }),
  }));
  return { ...order, tickets };
}
