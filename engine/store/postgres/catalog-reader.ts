import type { Async } from '../port-types';
import type { createCatalogReader } from '../catalog-reader';
import type { Queryable } from './queryable';

type CatalogReader = ReturnType<typeof createCatalogReader>;
type Item<K extends keyof CatalogReader> = ReturnType<CatalogReader[K]>[number];

/**
 * Every active catalog row, table by table, for writing the catalog document back out (store/catalog-reader.ts),
 * on PostgreSQL. Text sort keys are COLLATE "C" (byte order, as SQLite sorts TEXT) so both adapters export rows in
 * the same order; where SQLite's order leaves ties (an item's position counts within its area) they fall in primary-key
 * order, as SQLite's scan of the primary key hands them to its sort. Reads only; each list is one statement (a consistent snapshot within it).
 */
export function createPgCatalogReader(q: Queryable): Async<CatalogReader> {
  const all = <R extends object>(sql: string) => async (): Promise<R[]> => (await q.query<R>(sql)).rows;
  return {
    locations: all<Item<'locations'>>('SELECT id, name, currencies FROM locations WHERE active = 1 ORDER BY position'),
    rates: all<Item<'rates'>>(`SELECT from_currency AS "from", to_currency AS "to", rate, valid_until AS "validUntil" FROM exchange_rates
      ORDER BY from_currency COLLATE "C", to_currency COLLATE "C"`),
    events: all<Item<'events'>>('SELECT id, name, location_id AS "locationId", kind FROM events WHERE active = 1 ORDER BY position'),
    extras: all<Item<'extras'>>(`SELECT event_id AS "eventId", id, name, price, max_quantity AS "maxQuantity" FROM extras WHERE active = 1
      ORDER BY event_id COLLATE "C", position`),
    occurrences: all<Item<'occurrences'>>(`SELECT id, event_id AS "eventId", starts_at AS "startsAt", on_sale AS "onSale" FROM occurrences WHERE active = 1
      ORDER BY event_id COLLATE "C", position`),
    areas: all<Item<'areas'>>(`SELECT occurrence_id AS "occurrenceId", id, name, seating FROM areas WHERE active = 1
      ORDER BY occurrence_id COLLATE "C", position`),
    options: all<Item<'options'>>(`SELECT occurrence_id AS "occurrenceId", area_id AS "areaId", id, name, price FROM price_options WHERE active = 1
      ORDER BY occurrence_id COLLATE "C", position, id COLLATE "C"`),
    items: all<Item<'items'>>(`SELECT occurrence_id AS "occurrenceId", area_id AS "areaId", id, label, capacity FROM inventory_items WHERE active = 1
      ORDER BY occurrence_id COLLATE "C", position, id COLLATE "C"`),
    vouchers: all<Item<'vouchers'>>(`SELECT code, percent_off AS "percentOff", amount_off AS "amountOff", amount_off_currency AS "amountOffCurrency",
      valid_until AS "validUntil", max_redemptions AS "maxRedemptions", event_ids AS "eventIds", combinable FROM vouchers WHERE active = 1
      ORDER BY code COLLATE "C"`),
  };
}
