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
  /**
   * tickets in one cart, so in one order: the sum of its admission quantities (issue #22). 50 lines of 100
   * allowed 5,000, and an order that size held the engine for seconds as it was sold, imported, viewed and
   * printed. A thousand covers what a box office sells as one order — a school's whole year, a company's block
   * of a few hundred seats, a club's coach trips — and keeps each synchronous step of one order short: its
   * checkout or import writes its tickets in one transaction (~20–40 ms at 1,000 on two cores), its view and
   * translation take ~10 ms, and rendering it runs in slices (engine/shared/time-slices.ts). A larger group
   * is sold as several orders. Gift cards are one per cart anyway; extras are not tickets.
   */
  maxTicketsPerOrder: 1_000,
  maxIdLength: 128,
  maxNameLength: 200,
  /**
   * a catalog document (PUT /catalog, --catalog): 16 MiB, some 250,000 seats. Imported all or nothing, in
   * slices (catalog/import-catalog.ts); the limit bounds the parsed document in memory (a few hundred MB at
   * most) and the two pauses left, parsing and the schema check (a few hundred ms).
   */
  maxCatalogBytes: 16 * 1024 * 1024,
} as const;
