import { Type, type Static } from 'typebox';
import { MAX_IMAGE_URL_LENGTH } from '../domain/image-url';
import { CurrencyCode, Id, LIMITS, Money, Name, NonNegativeMoney, Timestamp } from './common';

/** The catalog document of contract §2: `--catalog FILE` and `PUT /api/v3/catalog`. */

const strict = { additionalProperties: false } as const;

/** A catalog name: one string, or its translations (at least one) — contract §2, issue #14. */
export const TranslatedName = Type.Union(
  [
    Name,
    Type.Object({ en: Type.Optional(Name), de: Type.Optional(Name), fr: Type.Optional(Name) }, { ...strict, minProperties: 1 }),
  ],
  { description: 'a name, or its translations { "en", "de", "fr" }; the read endpoints answer one string in the Accept-Language' },
);

/** An IANA time zone name such as Europe/Berlin (checked against the runtime's zone database on import). */
export const TimeZone = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9_+\\-]*(/[A-Za-z0-9_+\\-]+)*$', description: 'IANA time zone, e.g. Europe/Berlin' });
/** A picture: an https: URL or a data:image/ URL (engine/domain/image-url.ts; 400 INVALID_FIELD_VALUE reason unsafe_image_url otherwise). */
const ImageUrl = (description: string) => Type.String({ minLength: 1, maxLength: MAX_IMAGE_URL_LENGTH, description: `${description}: an https: URL or a data:image/ URL (PNG, JPEG, GIF, WebP, AVIF, SVG)` });
const DecimalString = (description: string) => Type.String({ pattern: '^\\d{1,12}(\\.\\d{1,12})?$', description });

export const Location = Type.Object(
  {
    id: Id,
    name: TranslatedName,
    currencies: Type.Array(CurrencyCode, { minItems: 1, maxItems: 50, uniqueItems: true, description: 'base currency first' }),
    timeZone: Type.Optional(TimeZone),
    banner: Type.Optional(ImageUrl("the venue's banner, shown across the top of a kiosk")),
  },
  strict,
);

export const ExchangeRate = Type.Object(
  { from: CurrencyCode, to: CurrencyCode, rate: DecimalString('units of `to` per one unit of `from`, from 0.000001 to 1000000 (400 INVALID_FIELD_VALUE reason rate_out_of_range otherwise)'), validUntil: Type.Optional(Timestamp) },
  strict,
);

export const Extra = Type.Object(
  { id: Id, name: TranslatedName, price: NonNegativeMoney, maxQuantity: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.maxQuantity })) },
  strict,
);

export const PriceOption = Type.Object({ id: Id, name: TranslatedName, price: NonNegativeMoney }, strict);

export const InventoryItem = Type.Object(
  { id: Id, label: Type.Optional(Type.String({ maxLength: LIMITS.maxNameLength })), capacity: Type.Integer({ minimum: 0, maximum: 1_000_000 }) },
  strict,
);

export const Area = Type.Object(
  {
    id: Id,
    name: TranslatedName,
    seating: Type.Union([Type.Literal('general'), Type.Literal('assigned')]),
    priceOptions: Type.Array(PriceOption, { minItems: 1, maxItems: 100 }),
    inventoryItems: Type.Array(InventoryItem, { minItems: 1, maxItems: 200_000 }),
  },
  strict,
);

export const Occurrence = Type.Object({ id: Id, startsAt: Timestamp, onSale: Type.Boolean(), areas: Type.Array(Area, { maxItems: 100 }) }, strict);

export const Event = Type.Object(
  {
    id: Id,
    name: TranslatedName,
    locationId: Id,
    kind: Type.Union([Type.Literal('ticket'), Type.Literal('giftCard')]),
    image: Type.Optional(ImageUrl("the event's picture, shown on a kiosk's event choice and start screen")),
    extras: Type.Optional(Type.Array(Extra, { maxItems: 100 })),
    occurrences: Type.Array(Occurrence, { maxItems: 10_000 }),
  },
  strict,
);

export const Voucher = Type.Object(
  {
    code: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
    percentOff: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100 })),
    amountOff: Type.Optional(NonNegativeMoney),
    validUntil: Type.Optional(Timestamp),
    maxRedemptions: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
    eventIds: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
    combinable: Type.Optional(Type.Boolean({
      description: 'true: may sit in one cart with other combinable vouchers. Default false: a cart holds one voucher unless every voucher in it is combinable',
    })),
  },
  strict,
);

export const CatalogDocument = Type.Object(
  {
    locations: Type.Array(Location, { maxItems: 1000 }),
    exchangeRates: Type.Optional(Type.Array(ExchangeRate, { maxItems: 10_000 })),
    events: Type.Array(Event, { maxItems: 10_000 }),
    vouchers: Type.Optional(Type.Array(Voucher, { maxItems: 100_000 })),
  },
  strict,
);
export type CatalogDocument = Static<typeof CatalogDocument>;

export const CatalogImportResult = Type.Object({
  locations: Type.Integer(),
  events: Type.Integer(),
  occurrences: Type.Integer(),
  inventoryItems: Type.Integer(),
  vouchers: Type.Integer(),
});

export const LocationView = Type.Object({
  id: Id,
  name: Name,
  availableCurrencies: Type.Array(CurrencyCode),
  timeZone: Type.Optional(Type.String({ description: "the venue's IANA time zone, when the catalog names one" })),
  banner: Type.Optional(Type.String({ description: "the venue's banner (an https: or data:image/ URL), when the catalog has one" })),
});

export const EventView = Type.Object({
  id: Id,
  name: Name,
  locationId: Id,
  kind: Type.Union([Type.Literal('ticket'), Type.Literal('giftCard')]),
  image: Type.Optional(Type.String({ description: "the event's picture (an https: or data:image/ URL), when the catalog has one" })),
  occurrences: Type.Array(Type.Object({ id: Id, startsAt: Timestamp, onSale: Type.Boolean() })),
});

/** The legacy v1 name of what a line sells (contract §11): `"<inventoryItemId>:<priceOptionId>"` or `"extra:<extraId>"`. */
const AggregateReference = (description: string) => Type.String({ description });

export const ExtraView = Type.Object({
  id: Id,
  name: Name,
  price: Money,
  maxQuantity: Type.Optional(Type.Integer()),
  aggregateReference: AggregateReference('legacy v1: "extra:<extraId>"'),
});

export const InventoryView = Type.Object({
  occurrenceId: Id,
  eventId: Id,
  startsAt: Timestamp,
  onSale: Type.Boolean(),
  currency: CurrencyCode,
  areas: Type.Array(
    Type.Object({
      id: Id,
      name: Name,
      seating: Type.Union([Type.Literal('general'), Type.Literal('assigned')]),
      priceOptions: Type.Array(
        Type.Object({
          id: Id,
          name: Name,
          price: Money,
          aggregateReference: Type.Optional(
            AggregateReference('legacy v1: "<inventoryItemId>:<priceOptionId>", when the area has one inventory item (general admission, gift cards)'),
          ),
          aggregateReferenceTemplate: Type.Optional(
            AggregateReference('legacy v1, areas of several inventory items (seats): RFC 6570 template "{inventoryItemId}:<priceOptionId>"'),
          ),
        }),
      ),
      inventoryItems: Type.Array(
        Type.Object({
          id: Id,
          label: Type.Optional(Type.String()),
          capacity: Type.Integer(),
          available: Type.Integer(),
          held: Type.Optional(Type.Integer({ description: 'places in carts that have not been paid yet (the rest of capacity − available is sold)' })),
        }),
      ),
    }),
  ),
  extras: Type.Array(ExtraView),
});
export type InventoryView = Static<typeof InventoryView>;
export type LocationView = Static<typeof LocationView>;
export type EventView = Static<typeof EventView>;

/** `<catalog>.<stock>`: the counters of migration 0012 when the answer was made. */
const StockVersion = Type.String({ pattern: '^[0-9]{1,15}\\.[0-9]{1,15}$', maxLength: 31 });

export const AvailabilityQuery = Type.Object(
  {
    since: Type.Optional({
      ...StockVersion,
      description: 'the `version` of an earlier answer: only inventory items changed after it are listed',
    }),
  },
  { additionalProperties: false },
);

export const AvailabilityView = Type.Object({
  occurrenceId: Id,
  version: { ...StockVersion, description: 'pass as `since` to get only what changes after this answer' },
  complete: Type.Boolean({
    description:
      'true: `items` lists every inventory item (no `since`, or the catalog was imported again since then: fetch the inventory afresh); false: only items changed since `since`',
  }),
  areas: Type.Array(
    Type.Object({ id: Id, capacity: Type.Integer(), available: Type.Integer(), held: Type.Integer() }),
    { description: 'every area of the occurrence with the sums over its inventory items, in the inventory\'s order' },
  ),
  items: Type.Object(
    {
      ids: Type.Array(Id),
      available: Type.Array(Type.Integer()),
      held: Type.Array(Type.Integer()),
    },
    { description: 'parallel arrays: item ids[k] has available[k] places left and held[k] in unpaid carts' },
  ),
});
export type AvailabilityView = Static<typeof AvailabilityView>;
