import { EngineError } from './errors';
import { LIMITS } from './limits';
import { convertMinorExact, percentOf, type Decimal, type Money } from './money';

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
 * A cart amount past LIMITS.maxAmount in `currency`: the caller says which field of its request took it
 * there (engine/carts/cart-view.ts), a 400, never an internal error.
 */
export class AmountOutOfRange extends Error {
  constructor(readonly currency: string) {
    super(`a cart amount in ${currency} passes ${LIMITS.maxAmount}`);
    this.name = 'AmountOutOfRange';
  }
}

const MAX = BigInt(LIMITS.maxAmount);

const exactFromBase = (amount: number, context: PriceContext): bigint =>
  context.rate === undefined ? BigInt(amount) : convertMinorExact(amount, context.rate, context.baseScale, context.scale);

/**
 * A base price in the context's currency. A conversion past the largest amount the API carries means the
 * rate does not fit this catalog's prices: the currency is unavailable (503), never an internal error.
 * (A catalog import refuses such a pair; only a rate stored before that check can get here.)
 */
export function fromBase(amount: number, context: PriceContext): number {
  const converted = exactFromBase(amount, context);
  if (converted > MAX) {
    throw new EngineError('CURRENCY_TEMPORARILY_UNAVAILABLE', { param: 'currency', details: { currency: context.currency, reason: 'rate_out_of_range' } });
  }
  return Number(converted);
}

/**
 * Prices a cart exactly (BigInt); every unit price, line, subtotal and total must stay within
 * ±LIMITS.maxAmount (or ±`limit`), else AmountOutOfRange.
 */
export function priceCart(lines: readonly CartLine[], vouchers: readonly VoucherTerms[], context: PriceContext, limit: bigint = MAX): PricedCart {
  const within = (value: bigint): number => {
    if (value > limit || value < -limit) throw new AmountOutOfRange(context.currency);
    return Number(value);
  };
  const money = (amount: number): Money => ({ amount, currency: context.currency });
  const items = lines.map(({ baseUnitPrice, ...line }): PricedItem => {
    const unit = within(exactFromBase(baseUnitPrice, context));
    return { ...line, unitPrice: money(unit), total: money(within(BigInt(unit) * BigInt(line.quantity))) };
  });
  const receiptLines: ReceiptLine[] = items.map((item) => ({
    type: item.type,
    label: `${item.quantity} × ${item.name}`,
    sign: 1,
    amount: item.total,
  }));

  const ticketSubtotal = within(items.filter((item) => item.type === 'admission').reduce((acc, item) => acc + BigInt(item.total.amount), 0n));
  let discountable = BigInt(ticketSubtotal);
  for (const voucher of vouchers) {
    const wanted = voucherDiscount(voucher, ticketSubtotal, context);
    const discount = wanted < discountable ? wanted : discountable;
    discountable -= discount;
    receiptLines.push({ type: 'voucher', label: `Voucher ${voucher.code}`, sign: -1, amount: money(within(discount)) });
  }

  const total = within(receiptLines.reduce((acc, line) => acc + BigInt(line.sign) * BigInt(line.amount.amount), 0n));
  return { items, receiptLines, total: money(total) };
}

/** What a voucher takes off, exactly; the caller caps it at what is left of the ticket subtotal. */
function voucherDiscount(voucher: VoucherTerms, ticketSubtotal: number, context: PriceContext): bigint {
  if (voucher.percentOff) return BigInt(percentOf(ticketSubtotal, voucher.percentOff));
  if (voucher.amountOff !== undefined) return exactFromBase(voucher.amountOff, context);
  return 0n;
}
