import type { CatalogDocument } from '../contract/catalog';
import { nameKey } from '../store/port-types';
import type { Storage } from '../shared/context';
import { groupBy } from '../shared/group-by';

/**
 * GET /api/v3/catalog: the catalog document of contract §2 as this engine holds it, so that one engine can
 * be another's upstream. Importing it elsewhere reproduces the catalog (held and sold counts stay local).
 *
 * Voucher codes are secrets a customer could redeem: they are in the document only for keys that need them
 * (`withVouchers`: catalog:write, admin, or a terminal's sync key with orders:import, so an offline terminal
 * still knows them). A `catalog:read` key alone — a kiosk's — gets the document without `vouchers`.
 */
export const VOUCHER_READERS = ['catalog:write', 'orders:import'] as const;

export async function exportCatalog(ctx: Storage, access: { withVouchers: boolean }): Promise<CatalogDocument> {
  return ctx.store.transaction(async (tx): Promise<CatalogDocument> => {
    const read = tx.catalogReader;
    const catalogNames = tx.catalogNames;
    const iso = (ms: number | null) => (ms === null ? {} : { validUntil: new Date(ms).toISOString() });
    // Every translation goes out as imported; a name without translations stays a plain string.
    const names = await catalogNames.names();
    const zones = await catalogNames.timeZones();
    const named = (kind: string, scope: string, id: string, name: string) => names.get(nameKey(kind, scope, id)) ?? name;
    const banners = await catalogNames.banners();
    const images = await catalogNames.images();
    const locations = (await read.locations()).map(({ id, name, currencies }) => {
      const timeZone = zones.get(id);
      const banner = banners.get(id);
      return { id, name: named('location', '', id, name), currencies: parseStrings(currencies), ...(timeZone && { timeZone }), ...(banner && { banner }) };
    });
    const baseOf = new Map(locations.map((location) => [location.id, location.currencies[0] ?? '']));
    const extras = groupBy(await read.extras(), (extra) => extra.eventId);
    const occurrences = groupBy(await read.occurrences(), (occurrence) => occurrence.eventId);
    const areas = groupBy(await read.areas(), (area) => area.occurrenceId);
    const options = groupBy(await read.options(), (option) => `${option.occurrenceId}\n${option.areaId}`);
    const items = groupBy(await read.items(), (item) => `${item.occurrenceId}\n${item.areaId}`);
    return {
      locations,
      exchangeRates: (await read.rates()).map(({ from, to, rate, validUntil }) => ({ from, to, rate, ...iso(validUntil) })),
      events: (await read.events()).map((event) => {
        const money = (amount: number) => ({ amount, currency: baseOf.get(event.locationId) ?? '' });
        const offered = extras.get(event.id) ?? [];
        return {
          ...event,
          name: named('event', '', event.id, event.name),
          ...(images.has(event.id) && { image: images.get(event.id) }),
          ...(offered.length > 0 && {
            extras: offered.map(({ id, name, price, maxQuantity }) => ({ id, name: named('extra', event.id, id, name), price: money(price), ...(maxQuantity !== null && { maxQuantity }) })),
          }),
          occurrences: (occurrences.get(event.id) ?? []).map((occurrence) => ({
            id: occurrence.id,
            startsAt: occurrence.startsAt,
            onSale: occurrence.onSale === 1,
            areas: (areas.get(occurrence.id) ?? []).map((area) => ({
              id: area.id,
              name: named('area', occurrence.id, area.id, area.name),
              seating: area.seating,
              priceOptions: (options.get(`${occurrence.id}\n${area.id}`) ?? []).map(({ id, name, price }) => ({ id, name: named('priceOption', occurrence.id, id, name), price: money(price) })),
              inventoryItems: (items.get(`${occurrence.id}\n${area.id}`) ?? []).map(({ id, label, capacity }) => ({ id, ...(label !== null && { label }), capacity })),
            })),
          })),
        };
      }),
      ...(access.withVouchers && { vouchers: (await read.vouchers()).map((voucher) => ({
        code: voucher.code,
        ...(voucher.percentOff !== null && { percentOff: Number(voucher.percentOff) }),
        ...(voucher.amountOff !== null && voucher.amountOffCurrency !== null && { amountOff: { amount: voucher.amountOff, currency: voucher.amountOffCurrency } }),
        ...iso(voucher.validUntil),
        ...(voucher.maxRedemptions !== null && { maxRedemptions: voucher.maxRedemptions }),
        ...(voucher.eventIds !== null && { eventIds: parseStrings(voucher.eventIds) }),
        ...(voucher.combinable === 1 && { combinable: true }),
      })) }),
    };
  }, { readOnly: true });
}

function parseStrings(json: string): string[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((value): value is string => typeof value === 'string') : [];
}
