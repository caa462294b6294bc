import type { Cart } from '../contract/cart';
import type { Order } from '../contract/order';
import { composeLineName } from '../domain/cart-rules';
import { defaultName, type NameLanguage } from '../domain/names';
import type { NameTable, PlaceRow } from '../store/catalog-names';
import { nameKey } from '../store/port-types';
import type { Storage } from './context';

/**
 * Carts and orders in a language (issue #14). A line keeps the name it was given when the cart was made, in
 * the catalog's default language; an answer names it again in the language asked for where the catalog
 * translates its parts (area, price option, extra), and only while the line still carries the name the
 * catalog gives it by default — a line whose place was renamed since keeps its name as sold. Receipt line
 * labels, the extras offered, an order's event, venue and ticket areas follow the same way. Ids, amounts and
 * the order of lines never change.
 */

type Item = Cart['items'][number];
type Line = Cart['receiptLines'][number];

/** How a voucher's receipt line starts (engine/domain/pricing.ts writes the English one). */
const VOUCHER: Record<NameLanguage, string> = { en: 'Voucher', de: 'Rabattcode', fr: 'Code promo' };

interface Namer {
  item(item: Item): string;
  name(kind: 'event' | 'location' | 'extra' | 'area', scope: string, id: string, stored: string): string;
  area(itemId: string, stored: string): string;
}

const placeKey = (item: Item): readonly [string, string, string] | undefined =>
  item.type !== 'extra' && item.occurrenceId !== undefined && item.inventoryItemId !== undefined && item.priceOptionId !== undefined
    ? [item.occurrenceId, item.inventoryItemId, item.priceOptionId]
    : undefined;

async function namer(ctx: Storage, language: NameLanguage, eventId: string | undefined, items: readonly Item[], more: readonly (readonly [string, string, string])[]): Promise<Namer> {
  const store = ctx.store.repos.catalogNames;
  const keys = items.map(placeKey).filter((key) => key !== undefined);
  const places = await store.places(keys);
  const wanted: (readonly [string, string, string])[] = [...more];
  for (const place of places.values()) wanted.push(['area', place.occurrenceId, place.areaId], ['priceOption', place.occurrenceId, place.priceOptionId]);
  if (eventId !== undefined) for (const item of items) if (item.extraId !== undefined) wanted.push(['extra', eventId, item.extraId]);
  const table: NameTable = await store.namesOf(wanted);
  const translated = (kind: string, scope: string, id: string, stored: string) => table.get(nameKey(kind, scope, id))?.[language] ?? stored;
  const placeOf = (item: Item): PlaceRow | undefined => {
    const key = placeKey(item);
    return key && places.get(nameKey(...key));
  };
  const byItem = new Map(items.map((item) => [item.id, item]));
  return {
    item(item) {
      if (item.type === 'extra') {
        const names = eventId === undefined || item.extraId === undefined ? undefined : table.get(nameKey('extra', eventId, item.extraId));
        return names && defaultName(names) === item.name ? (names[language] ?? item.name) : item.name;
      }
      const place = placeOf(item);
      if (!place || place.optionName === null) return item.name;
      const kind = item.type === 'giftCard' ? 'giftCard' : 'ticket';
      if (composeLineName(kind, place, place.optionName) !== item.name) return item.name; // renamed since it was sold
      const areaName = translated('area', place.occurrenceId, place.areaId, place.areaName);
      return composeLineName(kind, { ...place, areaName }, translated('priceOption', place.occurrenceId, place.priceOptionId, place.optionName));
    },
    name: translated,
    area(itemId, stored) {
      const item = byItem.get(itemId);
      const place = item && placeOf(item);
      return place && place.areaName === stored ? translated('area', place.occurrenceId, place.areaId, stored) : stored;
    },
  };
}

function localizeLines(names: Namer, language: NameLanguage, items: readonly Item[], receiptLines: readonly Line[]): Pick<Cart, 'items' | 'receiptLines'> {
  const labels = new Map<string, string>();
  const localized = items.map((item) => {
    const name = names.item(item);
    labels.set(`${item.quantity} × ${item.name}`, `${item.quantity} × ${name}`);
    return name === item.name ? item : { ...item, name };
  });
  const lines = receiptLines.map((line): Line => {
    if (line.type === 'voucher') {
      return line.label.startsWith(`${VOUCHER.en} `) ? { ...line, label: `${VOUCHER[language]}${line.label.slice(VOUCHER.en.length)}` } : line;
    }
    const label = labels.get(line.label);
    return label === undefined ? line : { ...line, label };
  });
  return { items: localized, receiptLines: lines };
}

/**
 * The language the catalog stores its names in when it has them (engine/domain/names.ts: English, else
 * German, else French). Naming a line again in it gives back what the line carries — the English name where
 * the catalog has one, the stored default where it has none — so an answer in English reads no names at
 * all: that is most answers, and two queries fewer on each.
 */
const STORED: NameLanguage = 'en';

/** A cart's answer with its lines and offered extras named in `language`. */
export async function localizeCart(ctx: Storage, cart: Cart, language: NameLanguage): Promise<Cart> {
  if (language === STORED) return cart;
  const eventId = (await ctx.store.repos.carts.get(cart.id))?.eventId;
  const offered = cart.options.extras ?? [];
  const names = await namer(ctx, language, eventId, cart.items, eventId === undefined ? [] : offered.map((extra) => ['extra', eventId, extra.id] as const));
  const { extras, ...options } = cart.options;
  return {
    ...cart,
    ...localizeLines(names, language, cart.items, cart.receiptLines),
    options: {
      ...options,
      ...(extras && { extras: extras.map((extra) => ({ ...extra, name: eventId === undefined ? extra.name : names.name('extra', eventId, extra.id, extra.name) })) }),
    },
  };
}

/** An order's answer with its lines, event, venue and ticket areas named in `language`. */
export async function localizeOrder(ctx: Storage, order: Order, language: NameLanguage): Promise<Order> {
  if (language === STORED) return order;
  const event = order.event;
  const more = event ? [['event', '', event.id] as const, ['location', '', event.location.id] as const] : [];
  const names = await namer(ctx, language, event?.id, order.items, more);
  return {
    ...order,
    ...localizeLines(names, language, order.items, order.receiptLines),
    ...(event && {
      event: {
        ...event,
        name: names.name('event', '', event.id, event.name),
        location: { ...event.location, name: names.name('location', '', event.location.id, event.location.name) },
      },
    }),
    tickets: order.tickets.map((ticket) => (ticket.area === undefined ? ticket : { ...ticket, area: names.area(ticket.itemId, ticket.area) })),
  };
}

/** Several orders' answers in `language` (a page of GET /orders). */
export async function localizeOrders(ctx: Storage, orders: readonly Order[], language: NameLanguage): Promise<Order[]> {
  if (language === STORED) return [...orders];
  const out: Order[] = [];
  for (const order of orders) out.push(await localizeOrder(ctx, order, language));
  return out;
}
