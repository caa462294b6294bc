import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../../../engine/domain/money';
import { EngineError } from '../../../engine/domain/errors';
import { LIMITS } from '../../../engine/domain/limits';
import { AmountOutOfRange, fromBase, priceCart, type CartLine, type PriceContext, type VoucherTerms } from '../../../engine/domain/pricing';

const decimal = (text: string) => {
  const parsed = parseDecimal(text);
  if (!parsed) throw new Error(text);
  return parsed;
};
const EUR: PriceContext = { currency: 'EUR', scale: 2, baseScale: 2, rate: undefined };
const JPY: PriceContext = { currency: 'JPY', scale: 0, baseScale: 2, rate: decimal('162.35') };

const tickets: CartLine = { id: 't', type: 'admission', name: 'Standing — Adult', quantity: 3, baseUnitPrice: 3900 };
const parking: CartLine = { id: 'p', type: 'extra', name: 'Parking', quantity: 2, baseUnitPrice: 800, extraId: 'parking' };

function signedSum(cart: ReturnType<typeof priceCart>): number {
  return cart.receiptLines.reduce((total, line) => total + line.sign * line.amount.amount, 0);
}

describe('priceCart', () => {
  it('prices each line as unit × quantity in the base currency', () => {
    const cart = priceCart([tickets, parking], [], EUR);
    expect(cart.items.map((item) => item.total.amount)).toEqual([11700, 1600]);
    expect(cart.total).toEqual({ amount: 13300, currency: 'EUR' });
    expect(cart.receiptLines.map((line) => line.sign)).toEqual([1, 1]);
  });

  it('converts each unit price once, then multiplies (contract §3)', () => {
    const cart = priceCart([tickets], [], JPY);
    expect(cart.items[0]?.unitPrice).toEqual({ amount: 6332, currency: 'JPY' });
    expect(cart.total.amount).toBe(6332 * 3); // not round(11700 × 1.6235) = 18995
  });

  it('takes a percentage voucher of the ticket subtotal only, as a negative line', () => {
    const welcome: VoucherTerms = { code: 'WELCOME10', percentOff: decimal('10') };
    const cart = priceCart([tickets, parking], [welcome], EUR);
    const voucherLine = cart.receiptLines.at(-1);
    expect(voucherLine).toEqual({ type: 'voucher', label: 'Voucher WELCOME10', sign: -1, amount: { amount: 1170, currency: 'EUR' } });
    expect(cart.total.amount).toBe(13300 - 1170);
  });

  it('converts an amount-off voucher once and caps it at the ticket subtotal', () => {
    const huge: VoucherTerms = { code: 'HUGE', amountOff: 100_000 };
    const cart = priceCart([tickets, parking], [huge], EUR);
    expect(cart.receiptLines.at(-1)?.amount.amount).toBe(11700);
    expect(cart.total.amount).toBe(1600); // extras are still paid

    const five: VoucherTerms = { code: 'FIVEOFF', amountOff: 500 };
    expect(priceCart([tickets], [five], JPY).receiptLines.at(-1)?.amount).toEqual({ amount: 812, currency: 'JPY' }); // 5.00 × 162.35 = 811.75
  });

  it('never discounts more than the subtotal across several vouchers', () => {
    const vouchers: VoucherTerms[] = [
      { code: 'A', percentOff: decimal('60') },
      { code: 'B', percentOff: decimal('60') },
    ];
    const cart = priceCart([tickets], vouchers, EUR);
    expect(cart.receiptLines.slice(1).map((line) => line.amount.amount)).toEqual([7020, 4680]);
    expect(cart.total.amount).toBe(0);
  });

  it.each([EUR, JPY, { currency: 'KWD', scale: 3, baseScale: 2, rate: decimal('0.3321') }])(
    'keeps total equal to the signed sum of receipt lines in %s',
    (context) => {
      const cart = priceCart([tickets, parking], [{ code: 'WELCOME10', percentOff: decimal('10') }, { code: 'FIVEOFF', amountOff: 333 }], context);
      expect(cart.total.amount).toBe(signedSum(cart));
      expect(cart.receiptLines.every((line) => line.amount.amount >= 0 && line.amount.currency === context.currency)).toBe(true);
    },
  );
});

describe('amounts at the limit (issue #22)', () => {
  const KWD_AT_MAX_RATE: PriceContext = { currency: 'KWD', scale: 3, baseScale: 2, rate: decimal('1000000') };
  const line = (quantity: number, baseUnitPrice: number, type: CartLine['type'] = 'admission'): CartLine => ({ id: `l${quantity}`, type, name: 'x', quantity, baseUnitPrice });

  it('a total of exactly LIMITS.maxAmount is priced; one unit more is AmountOutOfRange, never a RangeError', () => {
    expect(priceCart([line(100, LIMITS.maxAmount / 100)], [], EUR).total.amount).toBe(LIMITS.maxAmount);
    expect(() => priceCart([line(100, LIMITS.maxAmount / 100), line(1, 1, 'extra')], [], EUR)).toThrow(AmountOutOfRange);
    // 50 × 100 extras at 10^12 would be 5 × 10^15 + …, past 2^53 with the extras: refused, exactly
    expect(() => priceCart(Array.from({ length: 100 }, (_, i) => ({ ...line(100, LIMITS.maxAmount, 'extra'), id: `x${i}` })), [], EUR)).toThrow(AmountOutOfRange);
  });

  it('a price of 10^12 at a rate of 10^6 to KWD is AmountOutOfRange in a cart and 503 in a listing, never a RangeError', () => {
    expect(() => priceCart([line(1, LIMITS.maxAmount)], [], KWD_AT_MAX_RATE)).toThrow(AmountOutOfRange);
    const listing = (() => {
      try {
        return fromBase(LIMITS.maxAmount, KWD_AT_MAX_RATE);
      } catch (error) {
        return error;
      }
    })();
    expect(listing).toBeInstanceOf(EngineError);
    expect(listing).toMatchObject({ code: 'CURRENCY_TEMPORARILY_UNAVAILABLE', status: 503 });
  });

  it('an amount-off voucher converted past the limit is capped at the subtotal, not an error', () => {
    const cart = priceCart([line(1, 100)], [{ code: 'HUGE', amountOff: LIMITS.maxAmount }], KWD_AT_MAX_RATE);
    expect(cart.total.amount).toBe(0);
  });
});
