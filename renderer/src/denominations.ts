/**
 * The notes and coins of a currency, largest first, in minor units — what staff count the drawer in at the close.
 * Adding up what was counted (Σ count × face value) is counting, not pricing: the engine compares the count with
 * what it expects. A currency not listed here is counted as one amount (`Counted cash`) only.
 */
export interface Denomination {
  /** face value in minor units of the currency */
  readonly value: number;
  readonly kind: 'note' | 'coin';
}

const notes = (...values: number[]): Denomination[] => values.map((value) => ({ value, kind: 'note' }));
const coins = (...values: number[]): Denomination[] => values.map((value) => ({ value, kind: 'coin' }));

/** Notes and coins in circulation (minor units). Rarely seen ones (€500, 1 and 2 cent in some countries) stay: a row left empty counts nothing. */
export const DENOMINATIONS: Readonly<Record<string, readonly Denomination[]>> = {
  EUR: [...notes(50000, 20000, 10000, 5000, 2000, 1000, 500), ...coins(200, 100, 50, 20, 10, 5, 2, 1)],
  USD: [...notes(10000, 5000, 2000, 1000, 500, 200, 100), ...coins(100, 50, 25, 10, 5, 1)],
  GBP: [...notes(5000, 2000, 1000, 500), ...coins(200, 100, 50, 20, 10, 5, 2, 1)],
  CHF: [...notes(100000, 20000, 10000, 5000, 2000, 1000), ...coins(500, 200, 100, 50, 20, 10, 5)],
  JPY: [...notes(10000, 5000, 2000, 1000), ...coins(500, 100, 50, 10, 5, 1)],
  CAD: [...notes(10000, 5000, 2000, 1000, 500), ...coins(200, 100, 25, 10, 5)],
  AUD: [...notes(10000, 5000, 2000, 1000, 500), ...coins(200, 100, 50, 20, 10, 5)],
  SEK: [...notes(100000, 50000, 20000, 10000, 5000, 2000), ...coins(1000, 500, 200, 100)],
  NOK: [...notes(100000, 50000, 20000, 10000, 5000), ...coins(2000, 1000, 500, 100)],
  DKK: [...notes(100000, 50000, 20000, 10000, 5000), ...coins(2000, 1000, 500, 200, 100, 50)],
  PLN: [...notes(50000, 20000, 10000, 5000, 2000, 1000), ...coins(500, 200, 100, 50, 20, 10, 5, 2, 1)],
  CZK: [...notes(500000, 200000, 100000, 50000, 20000, 10000), ...coins(5000, 2000, 1000, 500, 200, 100)],
};

/** The notes and coins of `currency`, or none (counted as one amount). */
export function denominationsOf(currency: string): readonly Denomination[] {
  return DENOMINATIONS[currency] ?? [];
}

/**
 * What was counted, in minor units: Σ count × face value, the counts as typed (a count left empty counts
 * nothing). undefined while a count is not a whole number of pieces.
 */
export function countedTotal(denominations: readonly Denomination[], counts: Readonly<Record<number, string>>): number | undefined {
  let sum = 0;
  for (const { value } of denominations) {
    const typed = (counts[value] ?? '').trim();
    if (typed === '') continue;
    if (!/^\d{1,6}$/.test(typed)) return undefined;
    sum += Number(typed) * value;
  }
  return sum;
}
