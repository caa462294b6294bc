import type { CatalogDocument } from '../contract/catalog';

/**
 * The bundled demo catalog a new database gets (unless `--no-demo`): one venue selling in six currencies
 * of three scales (CHF is sold but has no rate, so it answers 503), a concert with extras and a small
 * standing area, a theatre production with 376 assigned seats and one date not yet on sale, gift cards,
 * and vouchers of every kind.
 */

const eur = (amount: number) => ({ amount, currency: 'EUR' });
const VENUE = 'stadthalle';

function seatMap(rows: string, seatsPerRow: number) {
  return [...rows].flatMap((row) =>
    Array.from({ length: seatsPerRow }, (_, i) => ({ id: `${row}${i + 1}`, label: `Row ${row}, Seat ${i + 1}`, capacity: 1 })),
  );
}

function theatreAreas() {
  return [
    {
      id: 'stalls',
      name: 'Stalls',
      seating: 'assigned' as const,
      priceOptions: [
        { id: 'stalls-full', name: 'Full price', price: eur(4500) },
        { id: 'stalls-concession', name: 'Concession', price: eur(3200) },
      ],
      inventoryItems: seatMap('ABCDEFGHIJKLMN', 20),
    },
    {
      id: 'circle',
      name: 'Circle',
      seating: 'assigned' as const,
      priceOptions: [
        { id: 'circle-full', name: 'Full price', price: eur(3500) },
        { id: 'circle-concession', name: 'Concession', price: eur(2500) },
      ],
      inventoryItems: seatMap('PQRSTU', 16),
    },
  ];
}

function concertAreas() {
  return [
    {
      id: 'standing',
      name: 'Standing',
      seating: 'general' as const,
      priceOptions: [
        { id: 'standing-adult', name: 'Adult', price: eur(3900) },
        { id: 'standing-student', name: 'Student', price: eur(2900) },
      ],
      inventoryItems: [{ id: 'standing', label: 'Standing area', capacity: 40 }],
    },
    {
      id: 'balcony',
      name: 'Balcony',
      seating: 'general' as const,
      priceOptions: [{ id: 'balcony-adult', name: 'Adult', price: eur(4900) }],
      inventoryItems: [{ id: 'balcony', label: 'Balcony', capacity: 12 }],
    },
  ];
}

export function demoCatalog(): CatalogDocument {
  return {
    locations: [{ id: VENUE, name: 'Stadthalle am Fluss', currencies: ['EUR', 'USD', 'GBP', 'JPY', 'KWD', 'CHF'] }],
    exchangeRates: [
      { from: 'EUR', to: 'USD', rate: '1.0825' },
      { from: 'EUR', to: 'GBP', rate: '0.8571' },
      { from: 'EUR', to: 'JPY', rate: '162.35' },
      { from: 'EUR', to: 'KWD', rate: '0.3321' },
    ],
    events: [
      {
        id: 'midnight-brass',
        name: 'Midnight Brass — Live in Concert',
        locationId: VENUE,
        kind: 'ticket',
        extras: [
          { id: 'parking', name: 'Parking', price: eur(800), maxQuantity: 4 },
          { id: 'programme', name: 'Programme booklet', price: eur(500) },
          { id: 'drink', name: 'Drink voucher', price: eur(450), maxQuantity: 10 },
          { id: 'tshirt', name: 'Tour T-shirt', price: eur(2500), maxQuantity: 5 },
        ],
        occurrences: [
          { id: 'brass-2027-03-12', startsAt: '2027-03-12T19:30:00Z', onSale: true, areas: concertAreas() },
          { id: 'brass-2027-03-13', startsAt: '2027-03-13T19:30:00Z', onSale: true, areas: concertAreas() },
        ],
      },
      {
        id: 'the-tempest',
        name: 'The Tempest',
        locationId: VENUE,
        kind: 'ticket',
        occurrences: [
          { id: 'tempest-2027-04-02', startsAt: '2027-04-02T18:00:00Z', onSale: true, areas: theatreAreas() },
          { id: 'tempest-2027-04-09', startsAt: '2027-04-09T18:00:00Z', onSale: true, areas: theatreAreas() },
          { id: 'tempest-2027-04-16', startsAt: '2027-04-16T18:00:00Z', onSale: false, areas: theatreAreas() },
        ],
      },
      {
        id: 'gift-card',
        name: 'Stadthalle Gift Card',
        locationId: VENUE,
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
                priceOptions: [
                  { id: 'gift-25', name: '€25 gift card', price: eur(2500) },
                  { id: 'gift-50', name: '€50 gift card', price: eur(5000) },
                  { id: 'gift-100', name: '€100 gift card', price: eur(10000) },
                ],
                inventoryItems: [{ id: 'gift-card', label: 'Gift card', capacity: 1_000_000 }],
              },
            ],
          },
        ],
      },
    ],
    vouchers: [
      // The two small welcome offers combine with each other; every other voucher stands alone in a cart.
      { code: 'WELCOME10', percentOff: 10, combinable: true },
      { code: 'FIVEOFF', amountOff: eur(500), combinable: true },
      { code: 'TEMPEST20', percentOff: 20, eventIds: ['the-tempest'] },
      { code: 'LUCKY50', percentOff: 50, maxRedemptions: 1 },
      { code: 'SUMMER24', percentOff: 15, validUntil: '2024-09-01T00:00:00Z' },
    ],
  };
}
