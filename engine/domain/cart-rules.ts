import { EngineError } from './errors';
import { LIMITS } from './limits';
import type { CartLine } from './pricing';

/** Rules for the items of a new cart (spec §2.4, §4.1): pure, fed with the catalog facts they name. */

export interface RequestedItem {
  readonly occurrenceId: string;
  readonly inventoryItemId: string;
  readonly priceOptionId: string;
  readonly quantity: number;
}

export interface OccurrenceFacts {
  readonly id: string;
  readonly eventId: string;
  readonly eventName: string;
  readonly kind: 'ticket' | 'giftCard';
  readonly onSale: boolean;
  readonly locationId: string;
}

export interface InventoryFacts {
  readonly id: string;
  readonly areaId: string;
  readonly areaName: string;
  readonly seating: 'general' | 'assigned';
  readonly label: string | null;
  readonly available: number;
}

export interface PriceOptionFacts {
  readonly id: string;
  readonly areaId: string;
  readonly name: string;
  readonly price: number;
}

export interface CatalogFacts {
  readonly occurrences: ReadonlyMap<string, OccurrenceFacts>;
  readonly inventory: ReadonlyMap<string, InventoryFacts>;
  readonly priceOptions: ReadonlyMap<string, PriceOptionFacts>;
}

export type NewCartLine = Omit<CartLine, 'id'>;

export interface CartPlan {
  readonly occurrence: OccurrenceFacts;
  readonly lines: readonly NewCartLine[];
  /** quantity to hold per inventory item id */
  readonly holds: ReadonlyMap<string, number>;
}

/** The occurrence every item must share; checks product types and gift-card limits on the way. */
export function resolveOccurrence(items: readonly RequestedItem[], occurrences: ReadonlyMap<string, OccurrenceFacts>): OccurrenceFacts {
  const facts = items.map((item, index) => {
    const occurrence = occurrences.get(item.occurrenceId);
    if (!occurrence) {
      throw new EngineError('INVALID_FIELD_VALUE', { param: `items[${index}].occurrenceId`, details: { reason: 'unknown_occurrence' } });
    }
    return occurrence;
  });
  const kinds = new Set(facts.map((occurrence) => occurrence.kind));
  if (kinds.size > 1) throw new EngineError('MIXED_PRODUCT_TYPES_NOT_SUPPORTED', { param: 'items' });
  if (kinds.has('giftCard')) {
    if (items.length > 1) throw new EngineError('MULTIPLE_GIFT_CARDS_NOT_SUPPORTED', { param: 'items[1]' });
    if (items[0]?.quantity !== 1) throw new EngineError('GIFT_CARD_QUANTITY_NOT_SUPPORTED', { param: 'items[0].quantity' });
  }
  const first = facts[0];
  if (!first) throw new EngineError('MISSING_REQUIRED_FIELD', { param: 'items[0]' });
  const stray = facts.findIndex((occurrence) => occurrence.id !== first.id);
  if (stray >= 0) throw new EngineError('MIXED_OCCURRENCES_NOT_SUPPORTED', { param: `items[${stray}].occurrenceId` });
  if (!first.onSale) throw new EngineError('OCCURRENCE_NOT_AVAILABLE', { param: 'items[0].occurrenceId', details: { occurrenceId: first.id } });
  return first;
}

/**
 * Checks each item against its occurrence's inventory and prices, that the cart stays within
 * LIMITS.maxTicketsPerOrder tickets (refused at the line that passes it), and that the stock is there to hold.
 */
export function planCart(items: readonly RequestedItem[], occurrence: OccurrenceFacts, catalog: CatalogFacts): CartPlan {
  const holds = new Map<string, number>();
  let tickets = 0;
  const lines = items.map((item, index): NewCartLine => {
    const inventory = catalog.inventory.get(item.inventoryItemId);
    if (!inventory) {
      throw new EngineError('INVALID_FIELD_VALUE', { param: `items[${index}].inventoryItemId`, details: { reason: 'unknown_inventory_item' } });
    }
    const option = catalog.priceOptions.get(item.priceOptionId);
    if (!option || option.areaId !== inventory.areaId) {
      throw new EngineError('INVALID_PRICE_OPTION', { param: `items[${index}].priceOptionId` });
    }
    if (inventory.seating === 'assigned' && item.quantity !== 1) {
      throw new EngineError('INVALID_FIELD_VALUE', { param: `items[${index}].quantity`, details: { reason: 'assigned_seat_quantity', maxQuantity: 1 } });
    }
    holds.set(inventory.id, (holds.get(inventory.id) ?? 0) + item.quantity);
    tickets += item.quantity;
    if (tickets > LIMITS.maxTicketsPerOrder) {
      throw new EngineError('INVALID_FIELD_VALUE', {
        param: `items[${index}].quantity`,
        details: { reason: 'max_tickets_per_order', maxTicketsPerOrder: LIMITS.maxTicketsPerOrder, requestedTickets: totalQuantity(items) },
      });
    }
    return {
      type: occurrence.kind === 'giftCard' ? 'giftCard' : 'admission',
      name: lineName(occurrence, inventory, option),
      quantity: item.quantity,
      baseUnitPrice: option.price,
      occurrenceId: occurrence.id,
      inventoryItemId: inventory.id,
      priceOptionId: option.id,
    };
  });
  for (const [inventoryItemId, requested] of holds) {
    const available = catalog.inventory.get(inventoryItemId)?.available ?? 0;
    if (requested > available) {
      const index = items.findIndex((item) => item.inventoryItemId === inventoryItemId);
      throw new EngineError('INVENTORY_EXHAUSTED', {
        param: `items[${index}].quantity`,
        details: { inventoryItemId, availableQuantity: Math.max(0, available), requestedQuantity: requested },
      });
    }
  }
  return { occurrence, lines, holds };
}

function totalQuantity(items: readonly RequestedItem[]): number {
  return items.reduce((sum, item) => sum + item.quantity, 0);
}

function lineName(occurrence: OccurrenceFacts, inventory: InventoryFacts, option: PriceOptionFacts): string {
  return composeLineName(occurrence.kind, inventory, option.name);
}

/** What a cart line for a place is called: "Stalls, Row A, Seat 1 — Full price", "Standing — Adult", a gift card's denomination. */
export function composeLineName(
  kind: 'ticket' | 'giftCard',
  place: { readonly areaName: string; readonly seating: 'general' | 'assigned'; readonly label: string | null },
  optionName: string,
): string {
  if (kind === 'giftCard') return optionName;
  const where = place.seating === 'assigned' && place.label ? `${place.areaName}, ${place.label}` : place.areaName;
  return `${where} — ${optionName}`;
}
