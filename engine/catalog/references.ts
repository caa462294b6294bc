/**
 * What a price option or an extra is called in the legacy v1 interface (contract §11): the catalog shows these
 * references beside its v3 ids, and the v1 facade (engine/legacy-v1/mapping-table.ts) reads them back. They
 * live with the catalog so that the catalog needs nothing of v1's, and v1 builds on the catalog.
 */
export const EXTRA_PREFIX = 'extra:';

/** A ticket's aggregateReference: `<inventoryItemId>:<priceOptionId>`. */
export const ticketReference = (inventoryItemId: string, priceOptionId: string): string => `${inventoryItemId}:${priceOptionId}`;

/** An extra's aggregateReference: `extra:<extraId>`. */
export const extraReference = (extraId: string): string => `${EXTRA_PREFIX}${extraId}`;
