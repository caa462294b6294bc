import type { CatalogDocument } from '../contract/catalog';
import { BRASS_PICTURE, TEMPEST_PICTURE, VENUE_BANNER } from './demo-images';

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
      name: { en: 'Stalls', de: 'Parkett', fr: 'Orchestre' },
      seating: 'assigned' as const,
      priceOptions: [
        { id: 'stalls-full', name: { en: 'Full price', de: 'Normalpreis', fr: 'Plein tarif' }, price: eur(4500) },
        { id: 'stalls-concession', name: { en: 'Concession', de: 'Ermäßigt', fr: 'Tarif réduit' }, price: eur(3200) },
      ],
      inventoryItems: seatMap('ABCDEFGHIJKLMN', 20),
    },
    {
      id: 'circle',
      name: { en: 'Circle', de: 'Rang', fr: 'Balcon' },
      seating: 'assigned' as const,
      priceOptions: [
        { id: 'circle-full', name: { en: 'Full price', de: 'Normalpreis', fr: 'Plein tarif' }, price: eur(3500) },
        { id: 'circle-concession', name: { en: 'Concession', de: 'Ermäßigt', fr: 'Tarif réduit' }, price: eur(2500) },
      ],
      inventoryItems: seatMap('PQRSTU', 16),
    },
  ];
}

function concertAreas() {
  return [
    {
      id: 'standing',
      name: { en: 'Standing', de: 'Stehplatz', fr: 'Debout' },
      seating: 'general' as const,
      priceOptions: [
        { id: 'standing-adult', name: { en: 'Adult', de: 'Erwachsene', fr: 'Adulte' }, price: eur(3900) },
        { id: 'standing-student', name: { en: 'Student', de: 'Studierende', fr: 'Étudiant' }, price: eur(2900) },
      ],
      inventoryItems: [{ id: 'standing', label: 'Standing area', capacity: 40 }],
    },
    {
      id: 'balcony',
      name: { en: 'Balcony', de: 'Balkon', fr: 'Galerie' },
      seating: 'general' as const,
      priceOptions: [{ id: 'balcony-adult', name: { en: 'Adult', de: 'Erwachsene', fr: 'Adulte' }, price: eur(4900) }],
      inventoryItems: [{ id: 'balcony', label: 'Balcony', capacity: 12 }],
    },
  ];
}

export function demoCatalog(): CatalogDocument {
  return {
    locations: [{ id: VENUE, name: 'Stadthalle am Fluss', currencies: ['EUR', 'USD', 'GBP', 'JPY', 'KWD', 'CHF'], timeZone: 'Europe/Berlin', banner: VENUE_BANNER }],
    exchangeRates: [
      { from: 'EUR', to: 'USD', rate: '1.0825' },
      { from: 'EUR', to: 'GBP', rate: '0.8571' },
      { from: 'EUR', to: 'JPY', rate: '162.35' },
      { from: 'EUR', to: 'KWD', rate: '0.3321' },
    ],
    events: [
      {
        id: 'midnight-brass',
        name: { en: 'Midnight Brass — Live in Concert', de: 'Midnight Brass — live im Konzert', fr: 'Midnight Brass — en concert' },
        locationId: VENUE,
        kind: 'ticket',
        image: BRASS_PICTURE,
        extras: [
          { id: 'parking', name: { en: 'Parking', de: 'Parken', fr: 'Parking' }, price: eur(800), maxQuantity: 4 },
          { id: 'programme', name: { en: 'Programme booklet', de: 'Programmheft', fr: 'Programme' }, price: eur(500) },
          { id: 'drink', name: { en: 'Drink voucher', de: 'Getränkegutschein', fr: 'Bon boisson' }, price: eur(450), maxQuantity: 10 },
          { id: 'tshirt', name: { en: 'Tour T-shirt', de: 'Tour-T-Shirt', fr: 'T-shirt de la tournée' }, price: eur(2500), maxQuantity: 5 },
        ],
        occurrences: [
          { id: 'brass-2027-03-12', startsAt: '2027-03-12T19:30:00Z', onSale: true, areas: concertAreas() },
          { id: 'brass-2027-03-13', startsAt: '2027-03-13T19:30:00Z', onSale: true, areas: concertAreas() },
        ],
      },
      {
        id: 'the-tempest',
        name: { en: 'The Tempest', de: 'Der Sturm', fr: 'La Tempête' },
        locationId: VENUE,
        kind: 'ticket',
        image: TEMPEST_PICTURE,
        occurrences: [
          { id: 'tempest-2027-04-02', startsAt: '2027-04-02T18:00:00Z', onSale: true, areas: theatreAreas() },
          { id: 'tempest-2027-04-09', startsAt: '2027-04-09T18:00:00Z', onSale: true, areas: theatreAreas() },
          { id: 'tempest-2027-04-16', startsAt: '2027-04-16T18:00:00Z', onSale: false, areas: theatreAreas() },
        ],
      },
      {
        id: 'gift-card',
        name: { en: 'Stadthalle Gift Card', de: 'Stadthalle-Geschenkkarte', fr: 'Carte cadeau Stadthalle' },
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
                name: { en: 'Gift card', de: 'Geschenkkarte', fr: 'Carte cadeau' },
                seating: 'general',
                priceOptions: [
                  { id: 'gift-25', name: { en: '€25 gift card', de: 'Geschenkkarte 25 €', fr: 'Carte cadeau 25 €' }, price: eur(2500) },
                  { id: 'gift-50', name: { en: '€50 gift card', de: 'Geschenkkarte 50 €', fr: 'Carte cadeau 50 €' }, price: eur(5000) },
                  { id: 'gift-100', name: { en: '€100 gift card', de: 'Geschenkkarte 100 €', fr: 'Carte cadeau 100 €' }, price: eur(10000) },
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
