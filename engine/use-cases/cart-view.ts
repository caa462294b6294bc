import { parseDecimal } from '../domain/money';
import { fromBase, priceCart, type CartLine, type PriceContext, type VoucherTerms } from '../domain/pricing';
import type { Cart } from '../contract/cart';
import type { CartRow, } from '../store/cart-repo';
import type { LocationRow, VoucherRow } from '../store/catalog-repo';
import type { EngineContext } from './context';
import { locationOf, priceContextFor } from './price-context';

/**
 * Where and how a cart is priced, when the caller has just worked it out in the same transaction; `lines`,
 * when the caller has just written them all (a new cart: its lines as inserted, in order, and no vouchers).
 */
export interface PricingOf { readonly location: LocationRow; readonly context: PriceContext; readonly lines?: readonly CartLine[] }

/** The cart as the API shows it, priced in `currency` (default: the cart's own). */
export function cartView(ctx: EngineContext, cart: CartRow, now: number, currency?: string, pricing?: PricingOf): Cart {
  const location = pricing?.location ?? locationOf(ctx, cart.locationId);
  const context = pricing?.context ?? priceContextFor(ctx, location, currency ?? cart.currency, now);
  const codes = pricing?.lines ? [] : ctx.carts.voucherCodes(cart.id);
  const vouchers = codes.length === 0 ? [] : ctx.catalog.vouchers(codes).map((row) => voucherTerms(row, location.currencies[0]));
  const priced = priceCart(pricing?.lines ?? ctx.carts.lines(cart.id), vouchers, context);
  const extras = cart.kind === 'ticket' ? ctx.catalog.extras(cart.eventId) : [];
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

export function voucherTerms(row: VoucherRow, baseCurrency: string | undefined): VoucherTerms {
  const percentOff = row.percentOff === null ? undefined : parseDecimal(row.percentOff);
  if (percentOff) return { code: row.code, percentOff };
  if (row.amountOff !== null && row.amountOffCurrency === baseCurrency) return { code: row.code, amountOff: row.amountOff };
  return { code: row.code };
}
