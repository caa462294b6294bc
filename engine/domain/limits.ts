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
   * a catalog document (PUT /catalog, --catalog): 16 MiB, some 250,000 seats. Imported all or nothing, in
   * slices (use-cases/import-catalog.ts); the limit bounds the parsed document in memory (a few hundred MB at
   * most) and the two pauses left, parsing and the schema check (a few hundred ms).
   */
  maxCatalogBytes: 16 * 1024 * 1024,
} as const;
