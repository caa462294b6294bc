/**
 * Money: integers in minor units, everywhere. This file holds every arithmetic helper there is.
 *
 * Rounding rule (contract §3), written once: a converted unit price is
 *   round_half_away_from_zero(base_minor × rate × 10^(scale_to − scale_from))
 * computed exactly on integers (BigInt) from the decimal string of the rate; a line is unit × quantity;
 * a voucher percentage is taken of the ticket subtotal in the cart currency and rounded the same way.
 * Floats never touch money: rates and percentages arrive as decimal strings and stay exact.
 *
 * The scale of a currency (JPY 0, EUR 2, KWD 3) is passed in by the caller, who reads it from ISO 4217
 * data (engine/domain/currencies.ts); this file knows no table.
 */

export interface Money {
  readonly amount: number;
  readonly currency: string;
}

/** An exact decimal: value = units / 10^scale. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL = /^(\d{1,12})(?:\.(\d{1,12}))?$/;

/** Parses a non-negative decimal string such as "1.0825" exactly; undefined when it is not one. */
export function parseDecimal(text: string): Decimal | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  return { units: BigInt(`${match[1]}${fraction}`), scale: fraction.length };
}

/** numerator / denominator rounded half away from zero; the denominator must be positive. */
export function roundHalfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const quotient = (2n * magnitude + denominator) / (2n * denominator);
  return negative ? -quotient : quotient;
}

const pow10 = (exponent: number): bigint => 10n ** BigInt(exponent);

/** The exact converted amount, as a BigInt: never out of range, for a caller that bounds it itself. */
export function convertMinorExact(amount: number | bigint, rate: Decimal, scaleFrom: number, scaleTo: number): bigint {
  let numerator = BigInt(amount) * rate.units;
  let denominator = pow10(rate.scale);
  const shift = scaleTo - scaleFrom;
  if (shift >= 0) numerator *= pow10(shift);
  else denominator *= pow10(-shift);
  return roundHalfAwayFromZero(numerator, denominator);
}

/** Converts an amount in minor units of one currency to minor units of another at an exact rate. */
export function convertMinor(amount: number, rate: Decimal, scaleFrom: number, scaleTo: number): number {
  return toSafeNumber(convertMinorExact(amount, rate, scaleFrom, scaleTo));
}

/** percent% of an amount, rounded half away from zero. */
export function percentOf(amount: number, percent: Decimal): number {
  const numerator = BigInt(amount) * percent.units;
  return toSafeNumber(roundHalfAwayFromZero(numerator, 100n * pow10(percent.scale)));
}

/** unit × quantity, refusing results money cannot represent exactly. */
export function multiply(unit: number, quantity: number): number {
  return toSafeNumber(BigInt(unit) * BigInt(quantity));
}

export function sum(amounts: readonly number[]): number {
  return toSafeNumber(amounts.reduce((acc, amount) => acc + BigInt(amount), 0n));
}

function toSafeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError('money amount out of range');
  }
  return Number(value);
}

/**
 * Sane exchange rates: from one millionth to one million units of `to` per unit of `from` (the widest real
 * pair, a strong currency against a hyperinflated one, is far inside). Outside, a rate is a typing mistake:
 * an import refuses it, and a stored one counts as no current rate.
 */
export const RATE_BOUNDS = { min: '0.000001', max: '1000000' } as const;

export function rateInBounds(rate: Decimal): boolean {
  const one = pow10(rate.scale);
  return rate.units * 1_000_000n >= one && rate.units <= 1_000_000n * one;
}
