import { Type, type Static } from 'typebox';
import { CurrencyCode, Id, LIMITS, Money, Timestamp } from './common';

/** Request and response shapes of /api/v3/carts (spec §2.2–2.4, §4.1–4.6; contract §4). */

const strict = { additionalProperties: false } as const;
const Quantity = Type.Integer({ minimum: 1, maximum: LIMITS.maxQuantity });

export const CartItemRequest = Type.Object(
  { occurrenceId: Id, inventoryItemId: Id, priceOptionId: Id, quantity: Quantity },
  strict,
);

export const CreateCartBody = Type.Object(
  {
    items: Type.Array(CartItemRequest, { minItems: 1, maxItems: LIMITS.maxItemsPerRequest, description: `at most ${LIMITS.maxTicketsPerOrder} tickets in all (the sum of the quantities)` }),
    currency: Type.Optional(CurrencyCode),
    previousCartId: Type.Optional(Id),
  },
  strict,
);
export type CreateCartBody = Static<typeof CreateCartBody>;

export const SwitchCurrencyBody = Type.Object({ currency: CurrencyCode }, strict);

export const AddExtrasBody = Type.Object(
  { items: Type.Array(Type.Object({ extraId: Id, quantity: Quantity }, strict), { minItems: 1, maxItems: LIMITS.maxItemsPerRequest }) },
  strict,
);
export type AddExtrasBody = Static<typeof AddExtrasBody>;

export const ChangeQuantityBody = Type.Object({ quantity: Quantity }, strict);

export const ApplyVoucherBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) }, strict);

export const CartParams = Type.Object({ cartId: Id });
export const CartItemParams = Type.Object({ cartId: Id, itemId: Id });
export const CartVoucherParams = Type.Object({ cartId: Id, code: Type.String({ minLength: 1, maxLength: 64 }) });

const ItemType = Type.Union([Type.Literal('admission'), Type.Literal('extra'), Type.Literal('giftCard')]);

export const CartItem = Type.Object({
  id: Id,
  type: ItemType,
  name: Type.String({
    description: "in the request's Accept-Language (en, de, fr) where the catalog translates the line's area, price option or extra; "
      + 'otherwise, and for a line whose place was renamed since, the name it was created with',
  }),
  quantity: Type.Integer(),
  unitPrice: Money,
  total: Money,
  occurrenceId: Type.Optional(Id),
  inventoryItemId: Type.Optional(Id),
  priceOptionId: Type.Optional(Id),
  extraId: Type.Optional(Id),
});

export const ReceiptLine = Type.Object({
  type: Type.Union([ItemType, Type.Literal('voucher')]),
  label: Type.String({ description: "the line's quantity and name, or the voucher and its code, in the request's Accept-Language as the item names are" }),
  sign: Type.Union([Type.Literal(1), Type.Literal(-1)]),
  amount: Money,
});

export const CartExtraOption = Type.Object({ id: Id, name: Type.String(), price: Money, maxQuantity: Type.Optional(Type.Integer()) });

export const Cart = Type.Object(
  {
    id: Id,
    expiresAt: Timestamp,
    currency: CurrencyCode,
    total: Money,
    items: Type.Array(CartItem),
    receiptLines: Type.Array(ReceiptLine),
    vouchers: Type.Array(Type.Object({ code: Type.String() })),
    options: Type.Object({ currencies: Type.Array(CurrencyCode), extras: Type.Optional(Type.Array(CartExtraOption)) }),
  },
);
export type Cart = Static<typeof Cart>;
