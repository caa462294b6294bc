import { Type, type Static, type TSchema } from 'typebox';
import { CURRENCY_PATTERN } from '../domain/currencies';
import { LIMITS } from '../domain/limits';

export { LIMITS };


export const Id = Type.String({ minLength: 1, maxLength: LIMITS.maxIdLength });
export const Name = Type.String({ minLength: 1, maxLength: LIMITS.maxNameLength });
export const CurrencyCode = Type.String({ pattern: CURRENCY_PATTERN, description: 'ISO 4217 code, three upper-case letters' });
export const Timestamp = Type.String({ format: 'date-time' });

export const Money = Type.Object(
  {
    amount: Type.Integer({ minimum: -LIMITS.maxAmount, maximum: LIMITS.maxAmount, description: 'minor units of the currency' }),
    currency: CurrencyCode,
  },
  { additionalProperties: false },
);
export type MoneyBody = Static<typeof Money>;

export const NonNegativeMoney = Type.Object(
  { amount: Type.Integer({ minimum: 0, maximum: LIMITS.maxAmount }), currency: CurrencyCode },
  { additionalProperties: false },
);

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      type: Type.String(),
      code: Type.String(),
      message: Type.String(),
      param: Type.Optional(Type.String()),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  },
);

/** `{ data: T }`, the envelope of every successful response (spec §2.1). */
export const Data = <T extends TSchema>(schema: T) => Type.Object({ data: schema });

export const CurrencyQuery = Type.Object({ currency: Type.Optional(CurrencyCode) }, { additionalProperties: false });

/** The response map of a route: its success shape under `data`, and the error envelope for the rest. */
export const replies = <T extends TSchema>(status: 200 | 201, schema: T) =>
  ({ [status]: Data(schema), '4xx': ErrorBody, '5xx': ErrorBody }) as const;
