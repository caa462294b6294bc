import { createCatalogMemo } from './catalog-memo';
import type { Db } from './db';
import type { InventoryFacts, OccurrenceFacts, PriceOptionFacts } from '../domain/cart-rules';

/** Reads of the catalog, each one prepared statement; lists of ids travel as one JSON parameter. */

export interface LocationRow { id: string; name: string; currencies: string[] }
export interface ExtraRow { id: string; name: string; price: number; maxQuantity: number | null }
export interface VoucherRow {
  code: string;
  percentOff: string | null;
  amountOff: number | null;
  amountOffCurrency: string | null;
  validUntil: number | null;
  maxRedemptions: number | null;
  redeemed: number;
  eventIds: string | null;
  active: number;
  /** 1: may sit in a cart with other combinable vouchers (engine/domain/voucher-policy) */
  combinable: number;
}
export interface EventRow { id: string; name: string; locationId: string; kind: 'ticket' | 'giftCard' }
export interface OccurrenceRow { id: string; eventId: string; startsAt: string; onSale: number }
export interface AreaRow { id: string; name: string; seating: 'general' | 'assigned' }
export interface OptionRow { id: string; areaId: string; name: string; price: number }
export interface ItemRow { id: string; areaId: string; label: string | null; capacity: number; available: number; held: number }

/**
 * What an inventory item has left to sell, over inventory_items' own columns: the one definition every
 * availability read uses (the inventory, the seat-map stock of store/stock-repo.ts, the compact form).
 */
/** What is left for everyone: capacity less what is held in carts, sold, and granted to terminals (contract §10). */
export const availableSql = (table = '') => `MAX(${table}capacity - ${table}held - ${table}sold - ${table}allocated, 0)`;

interface RawOccurrence extends Omit<OccurrenceFacts, 'onSale'> { onSale: number }
interface RawLocation { id: string; name: string; currencies: string }

const parseLocation = (row: RawLocation): LocationRow => ({ ...row, currencies: JSON.parse(row.currencies) as string[] });

export function createCatalogRepo(db: Db) {
  const occurrenceFacts = db.prepare<[string], RawOccurrence>(`
    SELECT o.id, o.event_id AS eventId, e.name AS eventName, e.kind, o.on_sale AS onSale, e.location_id AS locationId
    FROM occurrences o JOIN events e ON e.id = o.event_id
    WHERE o.id = ? AND o.active = 1 AND e.active = 1`);
  const inventoryById = db.prepare<[string, string], InventoryFacts>(`
    SELECT i.id, i.area_id AS areaId, a.name AS areaName, a.seating, i.label, MAX(i.capacity - i.held - i.sold - i.allocated, 0) AS available
    FROM inventory_items i JOIN areas a ON a.occurrence_id = i.occurrence_id AND a.id = i.area_id
    WHERE i.occurrence_id = ? AND i.id IN (SELECT value FROM json_each(?)) AND i.active = 1 AND a.active = 1`);
  // the same for one item, the common cart (json_each costs some 15 µs of its own)
  const inventoryOne = db.prepare<[string, string], InventoryFacts>(`
    SELECT i.id, i.area_id AS areaId, a.name AS areaName, a.seating, i.label, MAX(i.capacity - i.held - i.sold - i.allocated, 0) AS available
    FROM inventory_items i JOIN areas a ON a.occurrence_id = i.occurrence_id AND a.id = i.area_id
    WHERE i.occurrence_id = ? AND i.id = ? AND i.active = 1 AND a.active = 1`);
  const optionFacts = db.prepare<[string, string], PriceOptionFacts>(`
    SELECT id, area_id AS areaId, name, price FROM price_options WHERE occurrence_id = ? AND id = ? AND active = 1`);
  const locationById = db.prepare<[string], RawLocation>('SELECT id, name, currencies FROM locations WHERE id = ?');
  const allLocations = db.prepare<[], RawLocation>('SELECT id, name, currencies FROM locations WHERE active = 1 ORDER BY position');
  const currentRate = db.prepare<[string, string, number], { rate: string }>(`
    SELECT rate FROM exchange_rates WHERE from_currency = ? AND to_currency = ? AND (valid_until IS NULL OR valid_until > ?)`);
  const extrasOfEvent = db.prepare<[string], ExtraRow>(`
    SELECT id, name, price, max_quantity AS maxQuantity FROM extras WHERE event_id = ? AND active = 1 ORDER BY position`);
  const voucherByCode = db.prepare<[string], VoucherRow>(`
    SELECT code, percent_off AS percentOff, amount_off AS amountOff, amount_off_currency AS amountOffCurrency,
           valid_until AS validUntil, max_redemptions AS maxRedemptions, redeemed, event_ids AS eventIds, active, combinable
    FROM vouchers WHERE code = ?`);
  const vouchersByCodes = db.prepare<[string], VoucherRow>(`
    SELECT code, percent_off AS percentOff, amount_off AS amountOff, amount_off_currency AS amountOffCurrency,
           valid_until AS validUntil, max_redemptions AS maxRedemptions, redeemed, event_ids AS eventIds, active, combinable
    FROM vouchers WHERE code IN (SELECT value FROM json_each(?))`);
  const allEvents = db.prepare<[], EventRow>('SELECT id, name, location_id AS locationId, kind FROM events WHERE active = 1 ORDER BY position');
  const allOccurrences = db.prepare<[], OccurrenceRow>(`
    SELECT id, event_id AS eventId, starts_at AS startsAt, on_sale AS onSale FROM occurrences WHERE active = 1 ORDER BY event_id, position`);
  const occurrenceById = db.prepare<[string], OccurrenceRow & { locationId: string }>(`
    SELECT o.id, o.event_id AS eventId, o.starts_at AS startsAt, o.on_sale AS onSale, e.location_id AS locationId
    FROM occurrences o JOIN events e ON e.id = o.event_id WHERE o.id = ? AND o.active = 1 AND e.active = 1`);
  const areasOf = db.prepare<[string], AreaRow>('SELECT id, name, seating FROM areas WHERE occurrence_id = ? AND active = 1 ORDER BY position');
  const optionsOf = db.prepare<[string], OptionRow>(`
    SELECT id, area_id AS areaId, name, price FROM price_options WHERE occurrence_id = ? AND active = 1 ORDER BY position`);
  const itemsOf = db.prepare<[string], ItemRow>(`
    SELECT id, area_id AS areaId, label, capacity, ${availableSql()} AS available, held
    FROM inventory_items WHERE occurrence_id = ? AND active = 1 ORDER BY position`);

  // what does not change within a catalog version, kept per version (store/catalog-memo.ts); frozen, as shared
  const memo = createCatalogMemo(db);
  const keptOccurrence = memo.table<OccurrenceFacts>();
  const keptOption = memo.table<PriceOptionFacts>();
  const keptLocation = memo.table<LocationRow>();
  const keptExtras = memo.table<readonly ExtraRow[]>();

  return {
    occurrences(ids: readonly string[]): Map<string, OccurrenceFacts> {
      const found = new Map<string, OccurrenceFacts>();
      for (const id of ids) {
        const facts = keptOccurrence(id, () => {
          const row = occurrenceFacts.get(id);
          return row && Object.freeze({ ...row, onSale: row.onSale === 1 });
        });
        if (facts) found.set(id, facts);
      }
      return found;
    },
    inventory(occurrenceId: string, ids: readonly string[]): Map<string, InventoryFacts> {
      const [first] = ids;
      if (first !== undefined && ids.every((id) => id === first)) {
        const row = inventoryOne.get(occurrenceId, first);
        return new Map(row ? [[row.id, row]] : []);
      }
      return new Map(inventoryById.all(occurrenceId, JSON.stringify(ids)).map((row) => [row.id, row]));
    },
    priceOptions(occurrenceId: string, ids: readonly string[]): Map<string, PriceOptionFacts> {
      const found = new Map<string, PriceOptionFacts>();
      for (const id of ids) {
        const facts = keptOption(`${occurrenceId}\n${id}`, () => {
          const row = optionFacts.get(occurrenceId, id);
          return row && Object.freeze(row);
        });
        if (facts) found.set(id, facts);
      }
      return found;
    },
    location(id: string): LocationRow | undefined {
      return keptLocation(id, () => {
        const row = locationById.get(id);
        return row && Object.freeze(parseLocation(row));
      });
    },
    locations: (): LocationRow[] => allLocations.all().map(parseLocation),
    rate: (from: string, to: string, now: number): string | undefined => currentRate.get(from, to, now)?.rate,
    extras: (eventId: string): readonly ExtraRow[] =>
      keptExtras(eventId, () => Object.freeze(extrasOfEvent.all(eventId).map((row) => Object.freeze(row)))) ?? [],
    voucher: (code: string): VoucherRow | undefined => voucherByCode.get(code),
    vouchers: (codes: readonly string[]): VoucherRow[] => vouchersByCodes.all(JSON.stringify(codes)),
    events: (): EventRow[] => allEvents.all(),
    allOccurrences: (): OccurrenceRow[] => allOccurrences.all(),
    occurrence: (id: string) => occurrenceById.get(id),
    areas: (occurrenceId: string): AreaRow[] => areasOf.all(occurrenceId),
    options: (occurrenceId: string): OptionRow[] => optionsOf.all(occurrenceId),
    items: (occurrenceId: string): ItemRow[] => itemsOf.all(occurrenceId),
  };
}

export type CatalogRepo = ReturnType<typeof createCatalogRepo>;
