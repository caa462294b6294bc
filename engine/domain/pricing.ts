import { EngineError } from './errors';
import { LIMITS } from './limits';
import { convertMinor, multiply, percentOf, sum, type Decimal, type Money } from './money';

/**
 * Totals are a pure function of the cart: its lines at their base-currency unit prices, its vouchers and
 * the currency it is priced in. Invariant: total.amount === Σ sign × receiptLine.amount.amount.
 */

export type ItemType = 'admission' | 'extra' | 'giftCard';

export interface CartLine {
  readonly id: string;
  readonly type: ItemType;
  readonly name: string;
  readonly quantity: number;
  /** unit price in minor units of the location's base currency */
  readonly baseUnitPrice: number;
  readonly occurrenceId?: string;
  readonly inventoryItemId?: string;
  readonly priceOptionId?: string;
  readonly extraId?: string;
}

export interface VoucherTerms {
  readonly code: string;
  readonly percentOff?: Decimal;
  /** in minor units of the base currency */
  readonly amountOff?: number;
}

/** How to express base-currency amounts in the priced currency. */
export interface PriceContext {
  readonly currency: string;
  readonly scale: number;
  readonly baseScale: number;
  /** units of `currency` per one unit of the base currency; undefined when it is the base currency */
  readonly rate: Decimal | undefined;
}

export interface PricedItem extends Omit<CartLine, 'baseUnitPrice'> {
  readonly unitPrice: Money;
  readonly total: Money;
}

export interface ReceiptLine {
  readonly type: ItemType | 'voucher';
  readonly label: string;
  readonly sign: 1 | -1;
  readonly amount: Money;
}

export interface PricedCart {
  readonly items: readonly PricedItem[];
  readonly receiptLines: readonly ReceiptLine[];
  readonly total: Money;
}

/**
 * A base price in the context's currency. A conversion past the largest amount the API carries means the
 * rate does not fit this catalog's prices: the currency is unavailable (503), never an internal error.
 */
export function fromBase(amount: number, context: PriceContext): number {
  if (context.rate === undefined) return amount;
  const converted = convertMinor(amount, context.rate, context.baseScale, context.scale);
  if (converted > LIMITS.maxAmount) {
    throw new EngineError('CURRENCY_TEMPORARILY_UNAVAILABLE', { param: 'currency', details: { currency: context.currency, reason: 'rate_out_of_range' } });
  }
  return converted;
}

export function priceCart(lines: readonly CartLine[], vouchers: readonly VoucherTerms[], context: PriceContext): PricedCart {
  const money = (amount: number): Money => ({ amount, currency: context.currency });
  const items = lines.map(({ baseUnitPrice, ...line }): PricedItem => {
    const unit = fromBase(baseUnitPrice, context);
    return { ...line, unitPrice: money(unit), total: money(multiply(unit, line.quantity)) };
  });
  const receiptLines: ReceiptLine[] = items.map((item) => ({
    type: item.type,
    label: `${item.quantity} × ${item.name}`,
    sign: 1,
    amount: item.total,
  }));

  const ticketSubtotal = sum(items.filter((item) => item.type === 'admission').map((item) => item.total.amount));
  let discountable = ticketSubtotal;
  for (const voucher of vouchers) {
    const discount = Math.min(discountable, voucherDiscount(voucher, ticketSubtotal, context));
    discountable -= discount;
    receiptLines.push({ type: 'voucher', label: `Voucher ${voucher.code}`, sign: -1, amount: money(discount) });
  }

  const total = sum(receiptLines.map((line) => line.sign * line.amount.amount));
  return { items, receiptLines, total: money(total) };
}

function voucherDiscount(voucher: VoucherTerms, ticketSubtotal: number, context: PriceContext): number {
  if (voucher.percentOff) return percentOf(ticketSubtotal, voucher.percentOff);
  if (voucher.amountOff !== undefined) return fromBase(voucher.amountOff, context);
  return 0;
}
