/**
 * Limits the spec leaves open (§8: "not shown"), decided here and published in the OpenAPI document.
 * They keep every amount and count far inside exact integer range.
 */
export const LIMITS = {
  /**
   * The largest amount anywhere in the API, in minor units of any currency: a catalog price, a price converted
   * to another currency, a cart line, a cart total, an expected total, a tendered amount. Prices and rates
   * whose conversion passes it are refused on catalog import; a cart operation that would take a total past
   * it answers 400 INVALID_FIELD_VALUE reason total_out_of_range; so every cart the engine builds can be paid.
   * 10^12 is 9,000 times below 2^53: sums of such amounts stay exact (the arithmetic is BigInt regardless).
   */
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
