import { parseDecimal } from '../domain/money';
import { EngineError } from '../domain/errors';
import { LIMITS } from '../domain/limits';
import { AmountOutOfRange, fromBase, priceCart, type CartLine, type PriceContext, type VoucherTerms } from '../domain/pricing';
import type { Cart } from '../contract/cart';
import type { CartRow, } from '../store/cart-repo';
import type { LocationRow, VoucherRow } from '../store/catalog-repo';
import type { Repos } from '../store/port';
import { locationOf, priceContextFor } from '../catalog/price-context';

/**
 * Where and how a cart is priced, when the caller has just worked it out in the same transaction; `lines`,
 * when the caller has just written them all (a new cart: its lines as inserted, in order, and no vouchers).
 */
export interface PricingOf { readonly location: LocationRow; readonly context: PriceContext; readonly lines?: readonly CartLine[] }

/**
 * The cart as the API shows it, priced in `currency` (default: the cart's own). `blame`: the request field
 * that changed what the cart holds or the currency it is priced in, named when an amount would pass
 * LIMITS.maxAmount (400 reason total_out_of_range; `currency` when the base currency would still carry it).
 * Without one, the cart's own currency no longer carries it at the current rate: 503, as for a lapsed rate.
 */
export async function cartView(repos: Pick<Repos, 'carts' | 'catalog'>, cart: CartRow, now: number, currency?: string, pricing?: PricingOf, blame?: string): Promise<Cart> {
  const location = pricing?.location ?? (await locationOf(repos, cart.locationId));
  const context = pricing?.context ?? (await priceContextFor(repos, location, currency ?? cart.currency, now));
  const codes = pricing?.lines ? [] : await repos.carts.voucherCodes(cart.id);
  const vouchers = codes.length === 0 ? [] : (await repos.catalog.vouchers(codes)).map((row) => voucherTerms(row, location.currencies[0]));
  const lines = pricing?.lines ?? (await repos.carts.lines(cart.id));
  const priced = pricedWithin(lines, vouchers, context, blame);
  const extras = cart.kind === 'ticket' ? await repos.catalog.extras(cart.eventId) : [];
  return {
    id: cart.id,
    expiresAt: new Date(cart.expiresAt).toISOString(),
    currency: context.currency,
    total: priced.total,
    items: [...priced.items],
    receiptLines: [...priced.receiptLines],
    vouchers: codes.map((code) => ({ code })),
    options: {
      currencies: location.currencies,
      ...(extras.length > 0 && {
        extras: extras.map((extra) => ({
          id: extra.id,
          name: extra.name,
          price: { amount: fromBase(extra.price, context), currency: context.currency },
          ...(extra.maxQuantity !== null && { maxQuantity: extra.maxQuantity }),
        })),
      }),
    },
  };
}

/**
 * The cart priced in its location's base currency with no cap but JavaScript's safe integers: what a sale in
 * another currency comes to in the base, for the journal (issue #25). A cart in JPY may be payable while its
 * equivalent in a base of three decimals (KWD) passes the API's money limit; the sale is journalled all the same.
 */
export async function baseReceipt(repos: Pick<Repos, 'carts' | 'catalog'>, cart: CartRow, now: number): Promise<Pick<Cart, 'currency' | 'total' | 'receiptLines'>> {
  const location = await locationOf(repos, cart.locationId);
  const context = await priceContextFor(repos, location, location.currencies[0] ?? cart.currency, now);
  const codes = await repos.carts.voucherCodes(cart.id);
  const vouchers = codes.length === 0 ? [] : (await repos.catalog.vouchers(codes)).map((row) => voucherTerms(row, location.currencies[0]));
  const priced = priceCart(await repos.carts.lines(cart.id), vouchers, context, BigInt(Number.MAX_SAFE_INTEGER));
  return { currency: context.currency, total: priced.total, receiptLines: [...priced.receiptLines] };
}

export function voucherTerms(row: VoucherRow, baseCurrency: string | undefined): VoucherTerms {
  const percentOff = row.percentOff === null ? undefined : parseDecimal(row.percentOff);
  if (percentOff) return { code: row.code, percentOff };
  if (row.amountOff !== null && row.amountOffCurrency === baseCurrency) return { code: row.code, amountOff: row.amountOff };
  return { code: row.code };
}

function pricedWithin(lines: readonly CartLine[], vouchers: readonly VoucherTerms[], context: PriceContext, blame: string | undefined) {
  try {
    return priceCart(lines, vouchers, context);
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    const details = { reason: 'total_out_of_range', currency: context.currency, maxAmount: LIMITS.maxAmount };
    if (blame === undefined) throw new EngineError('CURRENCY_TEMPORARILY_UNAVAILABLE', { param: 'currency', details });
    throw new EngineError('INVALID_FIELD_VALUE', { param: blame !== 'currency' && fitsInBase(lines, vouchers, context) ? 'currency' : blame, details });
  }
}

/** whether the cart priced in its location's base currency stays within the limit */
function fitsInBase(lines: readonly CartLine[], vouchers: readonly VoucherTerms[], context: PriceContext): boolean {
  if (context.rate === undefined) return false;
  try {
    priceCart(lines, vouchers, { currency: 'base', scale: context.baseScale, baseScale: context.baseScale, rate: undefined });
    return true;
  } catch (error) {
    if (error instanceof AmountOutOfRange) return false;
    throw error;
  }
}
