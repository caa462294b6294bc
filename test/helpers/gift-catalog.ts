import type { CatalogDocument } from '../../engine/contract/catalog';

/**
 * Catalogs of the gift-card tests: one EUR hall with a show of general admission on a floor and gift cards.
 * `giftLedgerCatalog` is the ledger property's (test/api/gift-card-ledger-property.test.ts, test/pg), `giftCatalog`
 * the terminal rig's (test/sync/gift-card-helpers.ts).
 */

export const FLOOR = { occurrenceId: 'ledger-1', inventoryItemId: 'floor' } as const;
export const TICKET_PRICES = { adult: 3900, student: 2900, child: 1500 } as const;
export type TicketPrice = keyof typeof TICKET_PRICES;
export const GIFT_VALUES = { 'gift-25': 2500, 'gift-50': 5000, 'gift-100': 10000 } as const;
export type GiftValue = keyof typeof GIFT_VALUES;

/** The terminal rig's catalog: a show of 200 places at €35 and a €50 gift card. */
export const GIFT = {
  occurrenceId: 'gift-show-1',
  inventoryItemId: 'floor',
  priceOptionId: 'floor-adult',
  price: 3500,
  card: { occurrenceId: 'gift-card-1', inventoryItemId: 'gift-card', priceOptionId: 'gift-50', value: 5000 },
} as const;

const eur = (amount: number) => ({ amount, currency: 'EUR' });

type PriceOption = { id: string; name: string; price: { amount: number; currency: string } };

/** One area of general admission: `name` is also its inventory item's label. */
const generalArea = (id: string, name: string, priceOptions: PriceOption[], item: { id: string; capacity: number }) => ({
  id,
  name,
  seating: 'general' as const,
  priceOptions,
  inventoryItems: [{ id: item.id, label: name, capacity: item.capacity }],
});

interface HallSpec {
  hall: string;
  show: { id: string; name: string; occurrenceId: string; startsAt: string; priceOptions: PriceOption[]; inventoryItemId: string; capacity: number };
  cards: { eventId: string; occurrenceId: string; priceOptions: PriceOption[]; inventoryItemId: string; capacity: number };
}

/** A hall ('hall', EUR) with one show (its area 'floor') and one gift-card event (its area 'gift-card'). */
function hallWithGiftCards({ hall, show, cards }: HallSpec): CatalogDocument {
  return {
    locations: [{ id: 'hall', name: hall, currencies: ['EUR'] }],
    exchangeRates: [],
    events: [
      {
        id: show.id,
        name: show.name,
        locationId: 'hall',
        kind: 'ticket',
        occurrences: [
          {
            id: show.occurrenceId,
            startsAt: show.startsAt,
            onSale: true,
            areas: [generalArea('floor', 'Floor', show.priceOptions, { id: show.inventoryItemId, capacity: show.capacity })],
          },
        ],
      },
      {
        id: cards.eventId,
        name: 'Gift Card',
        locationId: 'hall',
        kind: 'giftCard',
        occurrences: [
          {
            id: cards.occurrenceId,
            startsAt: '2026-01-01T00:00:00Z',
            onSale: true,
            areas: [generalArea('gift-card', 'Gift card', cards.priceOptions, { id: cards.inventoryItemId, capacity: cards.capacity })],
          },
        ],
      },
    ],
    vouchers: [],
  };
}

const priceList = (prices: Record<string, number>): PriceOption[] => Object.entries(prices).map(([id, amount]) => ({ id, name: id, price: eur(amount) }));

/**
 * The gift-card ledger property's catalog: one EUR hall whose floor never sells out (so a long random run never
 * meets INVENTORY_EXHAUSTED), three ticket prices, and gift cards of 25, 50 and 100 euros with the ids the demo
 * catalog uses.
 */
export function giftLedgerCatalog(): CatalogDocument {
  return hallWithGiftCards({
    hall: 'Ledger Hall',
    show: { id: 'ledger-show', name: 'Ledger Show', occurrenceId: FLOOR.occurrenceId, startsAt: '2027-05-01T20:00:00Z', priceOptions: priceList(TICKET_PRICES), inventoryItemId: FLOOR.inventoryItemId, capacity: 1_000_000 },
    cards: { eventId: 'gift-card', occurrenceId: 'gift-card', priceOptions: priceList(GIFT_VALUES), inventoryItemId: 'gift-card', capacity: 1_000_000 },
  });
}

/** The terminal rig's catalog (GIFT): a show of 200 places at €35 and a €50 gift card. */
export function giftCatalog(): CatalogDocument {
  return hallWithGiftCards({
    hall: 'Gift Hall',
    show: {
      id: 'gift-show',
      name: 'Gift Show',
      occurrenceId: GIFT.occurrenceId,
      startsAt: '2027-06-01T18:00:00Z',
      priceOptions: [{ id: GIFT.priceOptionId, name: 'Adult', price: eur(GIFT.price) }],
      inventoryItemId: GIFT.inventoryItemId,
      capacity: 200,
    },
    cards: {
      eventId: 'gift-cards',
      occurrenceId: GIFT.card.occurrenceId,
      priceOptions: [{ id: GIFT.card.priceOptionId, name: '€50 gift card', price: eur(GIFT.card.value) }],
      inventoryItemId: GIFT.card.inventoryItemId,
      capacity: 100_000,
    },
  });
}
