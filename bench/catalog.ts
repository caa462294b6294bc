import type { CatalogDocument } from '../engine/contract/catalog';

/**
 * The benchmark's catalog document (contract §2): a standing concert for cart and sale scenarios, seat maps of
 * 1,000, 20,000 and 100,000 assigned seats for inventory reads, a 20,000-seat arena for the flash sale, and a
 * hundred past shows that the seeded order history sold.
 */

export const VENUE = 'bench-arena';
export const CONCERT = { eventId: 'bench-concert', occurrenceId: 'bench-concert-2031-06-01', inventoryItemId: 'standing', priceOptionId: 'standing-adult', extraId: 'parking' };
export const VOUCHER = 'BENCH10';
export const SEAT_MAPS = { 1_000: 'seats-1k', 20_000: 'seats-20k', 100_000: 'seats-100k' } as const;
export const FLASH = { occurrenceId: 'flash-20k', seats: 20_000, left: 1_000 };
/** past shows the seeded orders belong to: each holds `HISTORY_CAPACITY` standing places */
export const HISTORY = { eventId: 'bench-history', occurrences: 100, capacity: 1_000_000, inventoryItemId: 'standing', priceOptionId: 'standing-adult', price: 3900 };

export const historyOccurrenceId = (i: number) => `history-${String(i).padStart(3, '0')}`;

const eur = (amount: number) => ({ amount, currency: 'EUR' });
const SEATS_PER_BLOCK = 1_000;
const SEATS_PER_ROW = 25;

/** Blocks of 1,000 seats (40 rows of 25), each block an area with two price options. */
export function seatBlocks(seats: number) {
  const blocks = Math.ceil(seats / SEATS_PER_BLOCK);
  return Array.from({ length: blocks }, (_, b) => {
    const inBlock = Math.min(SEATS_PER_BLOCK, seats - b * SEATS_PER_BLOCK);
    return {
      id: blockId(b),
      name: `Block ${b + 1}`,
      seating: 'assigned' as const,
      priceOptions: [
        { id: `${blockId(b)}-full`, name: 'Full price', price: eur(5900 - (b % 5) * 500) },
        { id: `${blockId(b)}-concession`, name: 'Concession', price: eur(3900 - (b % 5) * 300) },
      ],
      inventoryItems: Array.from({ length: inBlock }, (_, s) => {
        const row = Math.floor(s / SEATS_PER_ROW) + 1;
        const seat = (s % SEATS_PER_ROW) + 1;
        return { id: seatId(b, s), label: `Block ${b + 1}, Row ${row}, Seat ${seat}`, capacity: 1 };
      }),
    };
  });
}

const blockId = (block: number) => `block-${block + 1}`;

/** The full-price option of the block a seat id (`B<block>-…`) belongs to. */
export const fullPriceOf = (seat: string): string => `block-${seat.slice(1, seat.indexOf('-'))}-full`;

/** Seat ids: `B<block>-R<row>-S<seat>` */
export function seatId(block: number, indexInBlock: number): string {
  return `B${block + 1}-R${Math.floor(indexInBlock / SEATS_PER_ROW) + 1}-S${(indexInBlock % SEATS_PER_ROW) + 1}`;
}

/** Every seat id of a `seats`-seat map, in catalog order. */
export function allSeatIds(seats: number): string[] {
  return Array.from({ length: seats }, (_, i) => seatId(Math.floor(i / SEATS_PER_BLOCK), i % SEATS_PER_BLOCK));
}

export function benchCatalog(): CatalogDocument {
  const seatMap = (id: string, seats: number, day: number) => ({ id, startsAt: `2031-07-${String(day).padStart(2, '0')}T19:00:00Z`, onSale: true, areas: seatBlocks(seats) });
  return {
    locations: [{ id: VENUE, name: 'Bench Arena', currencies: ['EUR', 'USD'] }],
    exchangeRates: [{ from: 'EUR', to: 'USD', rate: '1.0825' }],
    events: [
      {
        id: CONCERT.eventId,
        name: 'Bench Concert',
        locationId: VENUE,
        kind: 'ticket',
        extras: [
          { id: CONCERT.extraId, name: 'Parking', price: eur(800), maxQuantity: 4 },
          { id: 'programme', name: 'Programme booklet', price: eur(500) },
        ],
        occurrences: [
          {
            id: CONCERT.occurrenceId,
            startsAt: '2031-06-01T19:30:00Z',
            onSale: true,
            areas: [
              {
                id: 'standing',
                name: 'Standing',
                seating: 'general',
                priceOptions: [
                  { id: CONCERT.priceOptionId, name: 'Adult', price: eur(3900) },
                  { id: 'standing-student', name: 'Student', price: eur(2900) },
                ],
                inventoryItems: [{ id: CONCERT.inventoryItemId, label: 'Standing area', capacity: 1_000_000 }],
              },
            ],
          },
        ],
      },
      {
        id: 'bench-arena-shows',
        name: 'Arena Shows',
        locationId: VENUE,
        kind: 'ticket',
        occurrences: [
          seatMap(SEAT_MAPS[1_000], 1_000, 1),
          seatMap(SEAT_MAPS[20_000], 20_000, 2),
          seatMap(SEAT_MAPS[100_000], 100_000, 3),
          seatMap(FLASH.occurrenceId, FLASH.seats, 4),
        ],
      },
      {
        id: HISTORY.eventId,
        name: 'Past Shows',
        locationId: VENUE,
        kind: 'ticket',
        occurrences: Array.from({ length: HISTORY.occurrences }, (_, i) => ({
          id: historyOccurrenceId(i),
          startsAt: new Date(Date.UTC(2030, 0, 1) + i * 86_400_000).toISOString(),
          onSale: true,
          areas: [
            {
              id: 'standing',
              name: 'Standing',
              seating: 'general' as const,
              priceOptions: [{ id: HISTORY.priceOptionId, name: 'Adult', price: eur(HISTORY.price) }],
              inventoryItems: [{ id: HISTORY.inventoryItemId, label: 'Standing area', capacity: HISTORY.capacity }],
            },
          ],
        })),
      },
    ],
    vouchers: [{ code: VOUCHER, percentOff: 10 }],
  };
}
