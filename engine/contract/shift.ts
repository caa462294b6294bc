import { Type, type Static } from 'typebox';
import { CurrencyCode, Id, LIMITS, Money, NonNegativeMoney, Timestamp } from './common';

/**
 * Shifts and the cash drawer (contract §14): a shift opened with a float, pay-ins and pay-outs, its X report while
 * open and its Z report, frozen, once closed. Every amount is in the base currency of the engine's location (the
 * first location's first currency when the shift opened); a sale in another currency is listed per currency in
 * `byMethod` only.
 */

const strict = { additionalProperties: false } as const;

const StaffName = Type.String({ minLength: 1, maxLength: LIMITS.maxNameLength, description: 'who opened the shift (free text: a name or an initial)' });

export const OpenShiftBody = Type.Object(
  {
    openingFloat: Type.Object(NonNegativeMoney.properties, {
      ...strict,
      description: 'the cash in the drawer at the start, in the base currency (another currency: 400 INVALID_FIELD_VALUE)',
    }),
    staff: Type.Optional(StaffName),
  },
  strict,
);
export type OpenShiftBody = Static<typeof OpenShiftBody>;

export const CashMovementKind = Type.Union([Type.Literal('payIn'), Type.Literal('payOut')]);
export type CashMovementKind = Static<typeof CashMovementKind>;

export const CashMovementBody = Type.Object(
  {
    kind: CashMovementKind,
    amount: Type.Object(
      { amount: Type.Integer({ minimum: 1, maximum: LIMITS.maxAmount, description: 'minor units, more than 0' }), currency: CurrencyCode },
      { ...strict, description: 'in the base currency; a pay-out above the cash expected in the drawer: 409 INSUFFICIENT_CASH (details.expected)' },
    ),
    reason: Type.String({ minLength: 1, maxLength: 500, description: 'why the cash went in or out (shown in the report and the export)' }),
  },
  strict,
);
export type CashMovementBody = Static<typeof CashMovementBody>;

export const CloseShiftBody = Type.Object(
  {
    counted: Type.Object(NonNegativeMoney.properties, { ...strict, description: 'the cash counted in the drawer, in the base currency' }),
    note: Type.Optional(Type.String({ maxLength: 1000, description: 'why the count differs, or anything staff want on the Z report' })),
  },
  strict,
);
export type CloseShiftBody = Static<typeof CloseShiftBody>;

export const ShiftParams = Type.Object({ shiftId: Id });

export const ShiftsQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^(?:[1-9]|[1-9][0-9]|1[0-9][0-9]|200)$', description: '1–200, default 50' })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'the `nextCursor` of the page before' })),
  },
  strict,
);

export const Shift = Type.Object({
  id: Id,
  number: Type.Integer({ minimum: 1, description: '1, 2, 3 … per engine, at open' }),
  status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  openedAt: Timestamp,
  openingFloat: Money,
  staff: Type.Optional(Type.String()),
  closedAt: Type.Optional(Timestamp),
  zNumber: Type.Optional(Type.Integer({ minimum: 1, description: 'closed: the Z report\'s number, 1, 2, 3 … per engine without gaps' })),
  expected: Type.Optional(Type.Object(Money.properties, { description: 'closed: the cash the drawer should have held (the report\'s cash.expected)' })),
  counted: Type.Optional(Money),
  difference: Type.Optional(Type.Object(Money.properties, { description: 'closed: counted − expected (negative: cash missing)' })),
  note: Type.Optional(Type.String()),
});
export type Shift = Static<typeof Shift>;

export const ShiftsPage = Type.Object({ data: Type.Array(Shift), nextCursor: Type.Optional(Type.String()) });

export const CashMovement = Type.Object({
  id: Id,
  shiftId: Id,
  kind: CashMovementKind,
  amount: Money,
  reason: Type.String(),
  at: Timestamp,
});
export type CashMovement = Static<typeof CashMovement>;

const Count = Type.Integer({ minimum: 0 });

export const ShiftReport = Type.Object({
  kind: Type.Union([Type.Literal('X'), Type.Literal('Z')], { description: 'X: the shift is open, figures so far; Z: closed, frozen at the close' }),
  shift: Shift,
  orders: Type.Object({ count: Count, total: Money }, { description: 'the sales made in the shift (gross), in the base currency' }),
  cancellations: Type.Object({ count: Count, total: Money }, { description: 'the cancellations made in the shift, whichever shift sold the order' }),
  byMethod: Type.Array(
    Type.Object({ method: Type.String(), currency: CurrencyCode, count: Count, total: Money }),
    { description: 'per payment method and currency: orders it paid and the sum it took; base-currency rows first' },
  ),
  byEvent: Type.Array(Type.Object({ eventId: Id, name: Type.String(), tickets: Count, total: Money }), { description: 'per event: tickets sold and their sum (base currency)' }),
  cash: Type.Object(
    { openingFloat: Money, sales: Money, refunds: Money, payIns: Money, payOuts: Money, expected: Money },
    { description: 'the drawer, base currency only: expected = openingFloat + sales − refunds + payIns − payOuts (cash in another currency is in byMethod only)' },
  ),
});
export type ShiftReport = Static<typeof ShiftReport>;
