import { checkCatalog } from '../domain/catalog-rules';
import { EngineError } from '../domain/errors';
import { fromBase } from '../domain/pricing';
import type { CatalogDocument, EventView, InventoryView, LocationView } from '../contract/catalog';
import { nameIn, type NameLanguage } from '../domain/names';
import { createCatalogNames, nameKey } from '../store/catalog-names';
import { immediate } from '../store/db';
import type { EngineContext } from './context';
import { sellableHere } from './allocation-share';
import { groupBy } from './group-by';
import { locationOf, priceContextFor } from './price-context';
import { extraReference, ticketReference } from './v1/mapping-table';

/** The catalog: import (contract §2) and the read endpoints. */

/**
 * Imports a catalog in one go: at start (`--catalog FILE`, before the engine listens) and in tests. The
 * HTTP route and the sync pull use importCatalogInSlices (import-catalog.ts), which hands the event loop back.
 */
export function importCatalog(ctx: EngineContext, doc: CatalogDocument) {
  checkCatalog(doc);
  immediate(ctx.db, () => ctx.catalogWriter.write(doc));
  return importSummary(doc);
}

/** The answer of an import: what the document holds. */
export function importSummary(doc: CatalogDocument) {
  const occurrences = doc.events.flatMap((event) => event.occurrences);
  return {
    locations: doc.locations.length,
    events: doc.events.length,
    occurrences: occurrences.length,
    inventoryItems: occurrences.reduce((n, o) => n + o.areas.reduce((m, a) => m + a.inventoryItems.length, 0), 0),
    vouchers: doc.vouchers?.length ?? 0,
  };
}

/** Names in `language` where the catalog translates them (issue #14); the stored default otherwise. */
function namer(ctx: EngineContext, language: NameLanguage) {
  const names = createCatalogNames(ctx.db).names();
  return (kind: string, scope: string, id: string, stored: string) => nameIn(stored, names.get(nameKey(kind, scope, id)), language);
}

export function listLocations(ctx: EngineContext, language: NameLanguage = 'en'): LocationView[] {
  const name = namer(ctx, language);
  const zones = createCatalogNames(ctx.db).timeZones();
  const banners = createCatalogNames(ctx.db).banners();
  return ctx.catalog.locations().map((location) => {
    const timeZone = zones.get(location.id);
    const banner = banners.get(location.id);
    return {
      id: location.id,
      name: name('location', '', location.id, location.name),
      availableCurrencies: location.currencies,
      ...(timeZone && { timeZone }),
      ...(banner && { banner }),
    };
  });
}

export function listEvents(ctx: EngineContext, language: NameLanguage = 'en'): EventView[] {
  const byEvent = groupBy(ctx.catalog.allOccurrences(), (occurrence) => occurrence.eventId);
  const name = namer(ctx, language);
  const images = createCatalogNames(ctx.db).images();
  return ctx.catalog.events().map((event) => ({
    ...event,
    name: name('event', '', event.id, event.name),
    ...(images.has(event.id) && { image: images.get(event.id) }),
    occurrences: (byEvent.get(event.id) ?? []).map(({ id, startsAt, onSale }) => ({ id, startsAt, onSale: onSale === 1 })),
  }));
}

/** GET /occurrences/{id}/inventory: live availability (stock of timed-out carts is released first). */
export function occurrenceInventory(ctx: EngineContext, occurrenceId: string, currency: string | undefined, language: NameLanguage = 'en'): InventoryView {
  const now = ctx.now();
  const name = namer(ctx, language);
  return immediate(ctx.db, () => {
    const occurrence = ctx.catalog.occurrence(occurrenceId);
    if (!occurrence) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'occurrenceId' });
    const context = priceContextFor(ctx, locationOf(ctx, occurrence.locationId), currency, now);
    ctx.carts.releaseExpired(now);
    ctx.allocations.lapse(now);
    const price = (amount: number) => ({ amount: fromBase(amount, context), currency: context.currency });
    const options = groupBy(ctx.catalog.options(occurrenceId), (option) => option.areaId);
    const items = groupBy(ctx.catalog.items(occurrenceId), (item) => item.areaId);
    return {
      occurrenceId,
      eventId: occurrence.eventId,
      startsAt: occurrence.startsAt,
      onSale: occurrence.onSale === 1,
      currency: context.currency,
      areas: ctx.catalog.areas(occurrenceId).map((area) => ({
        ...area,
        name: name('area', occurrenceId, area.id, area.name),
        priceOptions: (options.get(area.id) ?? []).map((option) => ({
          id: option.id,
          name: name('priceOption', occurrenceId, option.id, option.name),
          price: price(option.price),
          ...legacyReference(items.get(area.id) ?? [], option.id),
        })),
        inventoryItems: (items.get(area.id) ?? []).map((item) => ({
          id: item.id,
          ...(item.label !== null && { label: item.label }),
          capacity: item.capacity,
          available: sellableHere(ctx, occurrenceId, item.id, item.available, now),
          held: item.held,
        })),
      })),
      extras: ctx.catalog.extras(occurrence.eventId).map((extra) => ({
        id: extra.id,
        name: name('extra', occurrence.eventId, extra.id, extra.name),
        price: price(extra.price),
        ...(extra.maxQuantity !== null && { maxQuantity: extra.maxQuantity }),
        aggregateReference: extraReference(extra.id),
      })),
    };
  });
}

/** What a price option is called in the legacy v1 interface (contract §11): one reference, or a template over seats. */
function legacyReference(items: readonly { id: string }[], priceOptionId: string) {
  const [only] = items;
  if (only && items.length === 1) return { aggregateReference: ticketReference(only.id, priceOptionId) };
  return { aggregateReferenceTemplate: ticketReference('{inventoryItemId}', priceOptionId) };
}
