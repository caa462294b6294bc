import { forgetCatalogFacts } from './catalog-memo';
import type { Db } from './db';
import type { CatalogDocument } from '../contract/catalog';
import { defaultName, translations, type Translated } from '../domain/names';
import { createItemPlanner, type ItemPlan } from './catalog-item-plan';

/**
 * Writes a checked catalog document. Rows are upserted by id so held and sold quantities and voucher
 * redemptions survive; rows the document no longer names are marked inactive rather than deleted, since
 * carts and orders may still name them. Runs inside the caller's transaction.
 *
 * Inventory items, a row per seat, are written from a plan (catalog-item-plan.ts): only the rows that differ.
 * `write` takes a plan made beforehand (in steps, with new occurrences staged, by importCatalogInSlices) if it
 * is still valid, and otherwise makes one on the spot.
 */
export function createCatalogWriter(db: Db) {
  const planner = createItemPlanner(db);
  const deactivate = ['locations', 'events', 'extras', 'occurrences', 'areas', 'price_options', 'vouchers'].map(
    (table) => db.prepare(`UPDATE ${table} SET active = 0 WHERE active = 1`),
  );
  const clearRates = db.prepare('DELETE FROM exchange_rates');
  // every import is a new catalog version: prepared seat maps (use-cases/seat-map.ts) are rebuilt on it
  const bumpCatalogVersion = db.prepare('UPDATE stock_clock SET catalog = catalog + 1 WHERE id = 1');
  const upsertLocation = db.prepare(`INSERT INTO locations (id, name, currencies, position, time_zone, banner) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, currencies = excluded.currencies, position = excluded.position,
      time_zone = excluded.time_zone, banner = excluded.banner, active = 1`);
  const clearNames = db.prepare('DELETE FROM catalog_names');
  const insertNames = db.prepare('INSERT OR REPLACE INTO catalog_names (kind, scope, id, names) VALUES (?, ?, ?, ?)');
  /** the default name for the row; the translations, if any, into catalog_names */
  const named = (kind: string, scope: string, id: string, name: Translated): string => {
    const all = translations(name);
    if (all) insertNames.run(kind, scope, id, JSON.stringify(all));
    return defaultName(name);
  };
  const insertRate = db.prepare('INSERT OR REPLACE INTO exchange_rates (from_currency, to_currency, rate, valid_until) VALUES (?, ?, ?, ?)');
  const upsertEvent = db.prepare(`INSERT INTO events (id, name, location_id, kind, position, image) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, location_id = excluded.location_id, kind = excluded.kind, position = excluded.position,
      image = excluded.image, active = 1`);
  const upsertExtra = db.prepare(`INSERT INTO extras (event_id, id, name, price, max_quantity, position) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (event_id, id) DO UPDATE SET name = excluded.name, price = excluded.price, max_quantity = excluded.max_quantity, position = excluded.position, active = 1`);
  const upsertOccurrence = db.prepare(`INSERT INTO occurrences (id, event_id, starts_at, on_sale, position) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET event_id = excluded.event_id, starts_at = excluded.starts_at, on_sale = excluded.on_sale, position = excluded.position, active = 1`);
  const upsertArea = db.prepare(`INSERT INTO areas (occurrence_id, id, name, seating, position) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (occurrence_id, id) DO UPDATE SET name = excluded.name, seating = excluded.seating, position = excluded.position, active = 1`);
  const upsertOption = db.prepare(`INSERT INTO price_options (occurrence_id, id, area_id, name, price, position) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (occurrence_id, id) DO UPDATE SET area_id = excluded.area_id, name = excluded.name, price = excluded.price, position = excluded.position, active = 1`);
  const upsertItem = db.prepare(`INSERT INTO inventory_items (occurrence_id, id, area_id, label, capacity, position) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (occurrence_id, id) DO UPDATE SET area_id = excluded.area_id, label = excluded.label, capacity = excluded.capacity, position = excluded.position, active = 1`);
  const deactivateItem = db.prepare('UPDATE inventory_items SET active = 0 WHERE occurrence_id = ? AND id = ? AND active = 1');
  const deactivateItemsOf = db.prepare('UPDATE inventory_items SET active = 0 WHERE occurrence_id = ? AND active = 1');
  const activateStaged = db.prepare('UPDATE inventory_items SET active = 1 WHERE occurrence_id = ? AND active = 0');
  const upsertVoucher = db.prepare(`INSERT INTO vouchers (code, percent_off, amount_off, amount_off_currency, valid_until, max_redemptions, event_ids, combinable)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (code) DO UPDATE SET percent_off = excluded.percent_off, amount_off = excluded.amount_off,
      amount_off_currency = excluded.amount_off_currency, valid_until = excluded.valid_until,
      max_redemptions = excluded.max_redemptions, event_ids = excluded.event_ids, combinable = excluded.combinable, active = 1`);

  const epoch = (iso: string | undefined): number | null => (iso === undefined ? null : Date.parse(iso));

  function write(doc: CatalogDocument, planned?: ItemPlan): void {
    // read before the version moves: a plan made at an older version is made again
    const plan = planned && planned.catalogVersion === planner.catalogVersion() ? planned : planner.planNow(doc);
    bumpCatalogVersion.run();
    forgetCatalogFacts(db);
    for (const statement of deactivate) statement.run();
    clearRates.run();
    clearNames.run();
    doc.locations.forEach((location, i) =>
      upsertLocation.run(location.id, named('location', '', location.id, location.name), JSON.stringify(location.currencies), i, location.timeZone ?? null, location.banner ?? null),
    );
    for (const rate of doc.exchangeRates ?? []) insertRate.run(rate.from, rate.to, rate.rate, epoch(rate.validUntil));
    doc.events.forEach((event, e) => {
      upsertEvent.run(event.id, named('event', '', event.id, event.name), event.locationId, event.kind, e, event.image ?? null);
      event.extras?.forEach((extra, x) =>
        upsertExtra.run(event.id, extra.id, named('extra', event.id, extra.id, extra.name), extra.price.amount, extra.maxQuantity ?? null, x),
      );
      event.occurrences.forEach((occurrence, o) => {
        // A gift card's occurrence is always on sale (contract §2).
        const onSale = event.kind === 'giftCard' || occurrence.onSale ? 1 : 0;
        upsertOccurrence.run(occurrence.id, event.id, occurrence.startsAt, onSale, o);
        occurrence.areas.forEach((area, a) => {
          upsertArea.run(occurrence.id, area.id, named('area', occurrence.id, area.id, area.name), area.seating, a);
          area.priceOptions.forEach((option, p) =>
            upsertOption.run(occurrence.id, option.id, area.id, named('priceOption', occurrence.id, option.id, option.name), option.price.amount, p),
          );
        });
      });
    });
    for (const { occurrenceId, areaId, position, item } of plan.upserts) upsertItem.run(occurrenceId, item.id, areaId, item.label ?? null, item.capacity, position);
    // staged rows on first: an occurrence stored inactive had rows the document dropped, turned off again next
    for (const occurrenceId of plan.staged) activateStaged.run(occurrenceId);
    for (const { occurrenceId, id } of plan.deactivate) deactivateItem.run(occurrenceId, id);
    for (const occurrenceId of plan.vanished) deactivateItemsOf.run(occurrenceId);
    for (const voucher of doc.vouchers ?? []) {
      upsertVoucher.run(...voucherRow(voucher));
    }
    // and once written: nothing read while the new version was half written is kept
    forgetCatalogFacts(db);
  }

  return { write, plan: planner.plan };
}

type VoucherDoc = NonNullable<CatalogDocument['vouchers']>[number];
/** A voucher's row as both adapters store it: code, percent off, amount off and its currency, valid until, limit, events, combinable. */
export type VoucherRowValues = [string, string | null, number | null, string | null, number | null, number | null, string | null, number];

/** The columns of a catalog voucher, in the order both catalog writers (SQLite, PostgreSQL) write them. */
export function voucherRow(voucher: VoucherDoc): VoucherRowValues {
  return [
    voucher.code.toUpperCase(),
    voucher.percentOff === undefined ? null : String(voucher.percentOff),
    voucher.amountOff?.amount ?? null,
    voucher.amountOff?.currency ?? null,
    voucher.validUntil === undefined ? null : Date.parse(voucher.validUntil),
    voucher.maxRedemptions ?? null,
    voucher.eventIds ? JSON.stringify(voucher.eventIds) : null,
    voucher.combinable === true ? 1 : 0,
  ];
}
