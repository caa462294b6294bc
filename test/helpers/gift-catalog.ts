import type { CatalogDocument } from '../../engine/contract/catalog';

/**
 * A catalog for the gift-card ledger property (test/api/gift-card-ledger-property.test.ts): one EUR hall whose
 * floor never sells out (so a long random run never meets INVENTORY_EXHAUSTED), three ticket prices, and gift
 * cards of 25, 50 and 100 euros with the ids the demo catalog uses.
 */

export const FLOOR = { occurrenceId: 'ledger-1', inventoryItemId: 'floor' } as const;
export const TICKET_PRICES = { adult: 3900, student: 2900, child: 1500 } as const;
export type TicketPrice = keyof typeof TICKET_PRICES;
export const GIFT_VALUES = { 'gift-25': 2500, 'gift-50': 5000, 'gift-100': 10000 } as const;
export type GiftValue = keyof typeof GIFT_VALUES;

const eur = (amount: number) => ({ amount, currency: 'EUR' });

export function giftLedgerCatalog(): CatalogDocument {
  return {
    locations: [{ id: 'hall', name: 'Ledger Hall', currencies: ['EUR'] }],
    exchangeRates: [],
    events: [
      {
        id: 'ledger-show',
        name: 'Ledger Show',
        locationId: 'hall',
        kind: 'ticket',
        occurrences: [
          {
            id: FLOOR.occurrenceId,
            startsAt: '2027-05-01T20:00:00Z',
            onSale: true,
            areas: [
              {
                id: 'floor',
                name: 'Floor',
                seating: 'general',
                priceOptions: Object.entries(TICKET_PRICES).map(([id, amount]) => ({ id, name: id, price: eur(amount) })),
                inventoryItems: [{ id: FLOOR.inventoryItemId, label: 'Floor', capacity: 1_000_000 }],
              },
            ],
          },
        ],
      },
      {
        id: 'gift-card',
        name: 'Gift Card',
        locationId: 'hall',
        kind: 'giftCard',
        occurrences: [
          {
            id: 'gift-card',
            startsAt: '2026-01-01T00:00:00Z',
            onSale: true,
            areas: [
              {
                id: 'gift-card',
                name: 'Gift card',
                seating: 'general',
                priceOptions: Object.entries(GIFT_VALUES).map(([id, amount]) => ({ id, name: id, price: eur(amount) })),
                inventoryItems: [{ id: 'gift-card', label: 'Gift card', capacity: 1_000_000 }],
              },
            ],
          },
        ],
      },
    ],
    vouchers: [],
  };
}
