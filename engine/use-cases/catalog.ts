import { checkCatalog } from '../domain/catalog-rules';
import { EngineError } from '../domain/errors';
import { fromBase } from '../domain/pricing';
import type { CatalogDocument, EventView, InventoryView, LocationView } from '../contract/catalog';
import { immediate } from '../store/db';
import type { EngineContext } from './context';
import { sellableHere } from './allocation-share';
import { groupBy } from './group-by';
import { locationOf, priceContextFor } from './price-context';

/** The catalog: import (contract §2) and the read endpoints. */

export function importCatalog(ctx: EngineContext, doc: CatalogDocument) {
  checkCatalog(doc);
  immediate(ctx.db, () => ctx.writeCatalog(doc));
  const occurrences = doc.events.flatMap((event) => event.occurrences);
  return {
    locations: doc.locations.length,
    events: doc.events.length,
    occurrences: occurrences.length,
    inventoryItems: occurrences.reduce((n, o) => n + o.areas.reduce((m, a) => m + a.inventoryItems.length, 0), 0),
    vouchers: doc.vouchers?.length ?? 0,
  };
}

export function listLocations(ctx: EngineContext): LocationView[] {
  return ctx.catalog.locations().map(({ id, name, currencies }) => ({ id, name, availableCurrencies: currencies }));
}

export function listEvents(ctx: EngineContext): EventView[] {
  const byEvent = groupBy(ctx.catalog.allOccurrences(), (occurrence) => occurrence.eventId);
  return ctx.catalog.events().map((event) => ({
    ...event,
    occurrences: (byEvent.get(event.id) ?? []).map(({ id, startsAt, onSale }) => ({ id, startsAt, onSale: onSale === 1 })),
  }));
}

/** GET /occurrences/{id}/inventory: live availability (stock of timed-out carts is released first). */
export function occurrenceInventory(ctx: EngineContext, occurrenceId: string, currency: string | undefined): InventoryView {
  const now = ctx.now();
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
        priceOptions: (options.get(area.id) ?? []).map((option) => ({ id: option.id, name: option.name, price: price(option.price) })),
        inventoryItems: (items.get(area.id) ?? []).map((item) => ({
          id: item.id,
          ...(item.label !== null && { label: item.label }),
          capacity: item.capacity,
          available: sellableHere(ctx, occurrenceId, item.id, item.available, now),
        })),
      })),
      extras: ctx.catalog.extras(occurrence.eventId).map((extra) => ({
        id: extra.id,
        name: extra.name,
        price: price(extra.price),
        ...(extra.maxQuantity !== null && { maxQuantity: extra.maxQuantity }),
      })),
    };
  });
}
