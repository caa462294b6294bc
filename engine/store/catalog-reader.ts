import type { Db } from './db';

/** Every active catalog row, table by table, for writing the catalog document back out. */
export function createCatalogReader(db: Db) {
  const q = <T>(sql: string) => db.prepare<[], T>(sql);
  const locations = q<{ id: string; name: string; currencies: string }>('SELECT id, name, currencies FROM locations WHERE active = 1 ORDER BY position');
  const rates = q<{ from: string; to: string; rate: string; validUntil: number | null }>(
    'SELECT from_currency AS "from", to_currency AS "to", rate, valid_until AS validUntil FROM exchange_rates ORDER BY 1, 2');
  const events = q<{ id: string; name: string; locationId: string; kind: 'ticket' | 'giftCard' }>(
    'SELECT id, name, location_id AS locationId, kind FROM events WHERE active = 1 ORDER BY position');
  const extras = q<{ eventId: string; id: string; name: string; price: number; maxQuantity: number | null }>(
    'SELECT event_id AS eventId, id, name, price, max_quantity AS maxQuantity FROM extras WHERE active = 1 ORDER BY event_id, position');
  const occurrences = q<{ id: string; eventId: string; startsAt: string; onSale: number }>(
    'SELECT id, event_id AS eventId, starts_at AS startsAt, on_sale AS onSale FROM occurrences WHERE active = 1 ORDER BY event_id, position');
  const areas = q<{ occurrenceId: string; id: string; name: string; seating: 'general' | 'assigned' }>(
    'SELECT occurrence_id AS occurrenceId, id, name, seating FROM areas WHERE active = 1 ORDER BY occurrence_id, position');
  const options = q<{ occurrenceId: string; areaId: string; id: string; name: string; price: number }>(
    'SELECT occurrence_id AS occurrenceId, area_id AS areaId, id, name, price FROM price_options WHERE active = 1 ORDER BY occurrence_id, position');
  const items = q<{ occurrenceId: string; areaId: string; id: string; label: string | null; capacity: number }>(
    'SELECT occurrence_id AS occurrenceId, area_id AS areaId, id, label, capacity FROM inventory_items WHERE active = 1 ORDER BY occurrence_id, position');
  const vouchers = q<{ code: string; percentOff: string | null; amountOff: number | null; amountOffCurrency: string | null; validUntil: number | null; maxRedemptions: number | null; eventIds: string | null; combinable: number }>(
    `SELECT code, percent_off AS percentOff, amount_off AS amountOff, amount_off_currency AS amountOffCurrency, valid_until AS validUntil,
            max_redemptions AS maxRedemptions, event_ids AS eventIds, combinable FROM vouchers WHERE active = 1 ORDER BY code`);
  return {
    locations: () => locations.all(),
    rates: () => rates.all(),
    events: () => events.all(),
    extras: () => extras.all(),
    occurrences: () => occurrences.all(),
    areas: () => areas.all(),
    options: () => options.all(),
    items: () => items.all(),
    vouchers: () => vouchers.all(),
  };
}
