/**
 * Limits the spec leaves open (§8: "not shown"), decided here and published in the OpenAPI document.
 * They keep every amount and count far inside exact integer range.
 */
export const LIMITS = {
  maxAmount: 1_000_000_000_000,
  /** per cart line, and per extra in a cart when the catalog sets no lower maxQuantity */
  maxQuantity: 100,
  /** items in one create-cart or add-extras request */
  maxItemsPerRequest: 50,
  maxIdLength: 128,
  maxNameLength: 200,
  /**
   * a catalog document (PUT /catalog, --catalog): 16 MiB, some 250,000 seats. It is imported in one
   * transaction (all or nothing); the limit keeps its parse and write to a few hundred MB and about a second.
   */
  maxCatalogBytes: 16 * 1024 * 1024,
} as const;
