import currencyCodes from 'currency-codes';

/** Three upper-case letters: the only spelling of an ISO 4217 code the API accepts. */
export const CURRENCY_PATTERN = '^[A-Z]{3}$';
const CURRENCY_REGEX = new RegExp(CURRENCY_PATTERN);

/**
 * ISO 4217 facts from a maintained data package (currency-codes), never a hand-typed table.
 * Codes with no minor unit defined by ISO (precious metals, testing codes) report scale 0 there.
 */
export function isIsoCurrency(code: string): boolean {
  return CURRENCY_REGEX.test(code) && currencyCodes.code(code) !== undefined;
}

/** The number of minor-unit digits of an ISO 4217 currency (JPY 0, EUR 2, KWD 3). */
export function scaleOf(code: string): number {
  const entry = currencyCodes.code(code);
  if (!entry) throw new RangeError(`not an ISO 4217 currency: ${code}`);
  return entry.digits;
}

