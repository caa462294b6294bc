import { checkCatalog } from '../domain/catalog-rules';
import { EngineError } from '../domain/errors';
import { fromBase } from '../domain/pricing';
import type { CatalogDocument, EventView, InventoryView, LocationView } from '../contract/catalog';
import { nameIn, type NameLanguage } from '../domain/names';
import { nameKey } from '../store/port-types';
import type { Repos, Tx } from '../store/port';
import type { Clock, Storage, Syncing, TerminalRole } from '../shared/context';
import { sellableHere } from '../allocations/allocation-share';
import { groupBy } from '../shared/group-by';
import { locationOf, priceContextFor } from './price-context';
import { extraReference, ticketReference } from './references';

/** The catalog: import (contract §2) and the read endpoints. */

/**
 * Imports a catalog in one go: at start (`--catalog FILE`, before the engine listens) and in tests. The
 * HTTP route and the sync pull use importCatalogInSlices (import-catalog.ts), which hands the event loop back.
 */
export async function importCatalog(ctx: Storage, doc: CatalogDocument) {
  checkCatalog(doc);
  for await (const step of ctx.store.importCatalog(doc)) void step;
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
async function namer(repos: Pick<Repos, 'catalogNames'>, language: NameLanguage) {
  const names = await repos.catalogNames.names();
  return (kind: string, scope: string, id: string, stored: string) => nameIn(stored, names.get(nameKey(kind, scope, id)), language);
}

export async function listLocations(ctx: Storage, language: NameLanguage = 'en'): Promise<LocationView[]> {
  const repos = ctx.store.repos;
  const name = await namer(repos, language);
  const zones = await repos.catalogNames.timeZones();
  const banners = await repos.catalogNames.banners();
  return (await repos.catalog.locations()).map((location) => {
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

export async function listEvents(ctx: Storage, language: NameLanguage = 'en'): Promise<EventView[]> {
  const repos = ctx.store.repos;
  const byEvent = groupBy(await repos.catalog.allOccurrences(), (occurrence) => occurrence.eventId);
  const name = await namer(repos, language);
  const images = await repos.catalogNames.images();
  return (await repos.catalog.events()).map((event) => ({
    ...event,
    name: name('event', '', event.id, event.name),
    ...(images.has(event.id) && { image: images.get(event.id) }),
    occurrences: (byEvent.get(event.id) ?? []).map(({ id, startsAt, onSale }) => ({ id, startsAt, onSale: onSale === 1 })),
  }));
}

/** GET /occurrences/{id}/inventory: live availability (stock of timed-out carts is released first). */
export async function occurrenceInventory(ctx: Storage & Clock & Syncing & TerminalRole, occurrenceId: string, currency: string | undefined, language: NameLanguage = 'en'): Promise<InventoryView> {
  const now = ctx.now();
  return ctx.store.transaction(async (tx) => inventoryIn(ctx, tx, occurrenceId, currency, language, now));
}

/** The inventory inside the caller's write transaction (timed-out carts and lapsed allocations released first). */
export async function inventoryIn(ctx: Syncing & TerminalRole, tx: Tx, occurrenceId: string, currency: string | undefined, language: NameLanguage, now: number): Promise<InventoryView> {
  const name = await namer(tx, language);
  {
    const occurrence = await tx.catalog.occurrence(occurrenceId);
    if (!occurrence) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'occurrenceId' });
    const context = await priceContextFor(tx, await locationOf(tx, occurrence.locationId), currency, now);
    await tx.carts.releaseExpired(now);
    await tx.allocations.lapse(now);
    const price = (amount: number) => ({ amount: fromBase(amount, context), currency: context.currency });
    const options = groupBy(await tx.catalog.options(occurrenceId), (option) => option.areaId);
    const items = groupBy(await tx.catalog.items(occurrenceId), (item) => item.areaId);
    const sellable = await sellableHere(ctx, tx, occurrenceId, now);
    const extras = await tx.catalog.extras(occurrence.eventId);
    return {
      occurrenceId,
      eventId: occurrence.eventId,
      startsAt: occurrence.startsAt,
      onSale: occurrence.onSale === 1,
      currency: context.currency,
      areas: (await tx.catalog.areas(occurrenceId)).map((area) => ({
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
          available: sellable(item.id, item.available),
          held: item.held,
        })),
      })),
      extras: extras.map((extra) => ({
        id: extra.id,
        name: name('extra', occurrence.eventId, extra.id, extra.name),
        price: price(extra.price),
        ...(extra.maxQuantity !== null && { maxQuantity: extra.maxQuantity }),
        aggregateReference: extraReference(extra.id),
      })),
    };
  }
}

/** What a price option is called in the legacy v1 interface (contract §11): one reference, or a template over seats. */
function legacyReference(items: readonly { id: string }[], priceOptionId: string) {
  const [only] = items;
  if (only && items.length === 1) return { aggregateReference: ticketReference(only.id, priceOptionId) };
  return { aggregateReferenceTemplate: ticketReference('{inventoryItemId}', priceOptionId) };
}
