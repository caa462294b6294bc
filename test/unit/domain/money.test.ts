import { describe, expect, it } from 'vitest';
import { scaleOf, isIsoCurrency } from '../../../engine/domain/currencies';
import { convertMinor, multiply, parseDecimal, percentOf, roundHalfAwayFromZero, sum } from '../../../engine/domain/money';

const rate = (text: string) => {
  const parsed = parseDecimal(text);
  if (!parsed) throw new Error(`bad rate ${text}`);
  return parsed;
};

describe('ISO 4217 scales come from the data package', () => {
  it.each([
    ['JPY', 0],
    ['EUR', 2],
    ['USD', 2],
    ['KWD', 3],
    ['CLF', 4],
  ])('%s has %i decimals', (code, scale) => expect(scaleOf(code)).toBe(scale));

  it('knows real codes and refuses invented ones', () => {
    expect(isIsoCurrency('CHF')).toBe(true);
    expect(isIsoCurrency('XYZ')).toBe(false);
    expect(isIsoCurrency('eur')).toBe(false);
    expect(() => scaleOf('XYZ')).toThrow(RangeError);
  });
});

describe('parseDecimal', () => {
  it('reads decimal strings exactly', () => {
    expect(parseDecimal('1.0825')).toEqual({ units: 10825n, scale: 4 });
    expect(parseDecimal('162')).toEqual({ units: 162n, scale: 0 });
  });
  it.each(['', '-1', '1e3', '1.', '.5', 'abc', '1.2.3'])('refuses %j', (text) => expect(parseDecimal(text)).toBeUndefined());
});

describe('roundHalfAwayFromZero', () => {
  it.each([
    [5n, 2n, 3n], // 2.5 → 3
    [-5n, 2n, -3n], // −2.5 → −3
    [7n, 3n, 2n], // 2.33 → 2
    [8n, 3n, 3n], // 2.67 → 3
    [-7n, 3n, -2n],
    [0n, 9n, 0n],
  ])('%i / %i → %i', (numerator, denominator, expected) => expect(roundHalfAwayFromZero(numerator, denominator)).toBe(expected));
});

describe('convertMinor (contract §3)', () => {
  it('EUR → USD keeps two decimals: 39.00 × 1.0825 = 42.2175 → 42.22', () => {
    expect(convertMinor(3900, rate('1.0825'), 2, 2)).toBe(4222);
  });
  it('EUR → JPY drops to no decimals: 39.00 × 162.35 = 6331.65 → 6332', () => {
    expect(convertMinor(3900, rate('162.35'), 2, 0)).toBe(6332);
  });
  it('EUR → KWD gains a decimal: 39.00 × 0.3321 = 12.9519 → 12.952', () => {
    expect(convertMinor(3900, rate('0.3321'), 2, 3)).toBe(12952);
  });
  it('rounds an exact half away from zero: 0.05 × 0.5 = 0.025 → 0.03', () => {
    expect(convertMinor(5, rate('0.5'), 2, 2)).toBe(3);
  });
  it('is exact where floats are not: 1.15 × 100 stays 115', () => {
    expect(convertMinor(115, rate('1'), 2, 2)).toBe(115);
    expect(convertMinor(1005, rate('0.5'), 2, 2)).toBe(503); // 5.025 → 5.03, floats give 5.02
  });
});

describe('percentOf, multiply and sum', () => {
  it('takes a percentage with half-away rounding', () => {
    expect(percentOf(7800, rate('10'))).toBe(780);
    expect(percentOf(1005, rate('10'))).toBe(101); // 100.5 → 101
    expect(percentOf(999, rate('12.5'))).toBe(125); // 124.875 → 125
  });
  it('multiplies and sums in integers and refuses overflow', () => {
    expect(multiply(4222, 3)).toBe(12666);
    expect(sum([1, 2, -3])).toBe(0);
    expect(() => multiply(Number.MAX_SAFE_INTEGER, 2)).toThrow(RangeError);
  });
});
