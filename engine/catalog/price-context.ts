import { isIsoCurrency, scaleOf } from '../domain/currencies';
import { EngineError } from '../domain/errors';
import { parseDecimal, rateInBounds } from '../domain/money';
import type { PriceContext } from '../domain/pricing';
import type { LocationRow } from '../store/catalog-repo';
import type { Repos } from '../store/port';

/**
 * How to price in `currency` (the location's base currency when absent) at a location, or the currency
 * error of spec §7.3: not ISO 4217 or not sold here (400), or sold but with no current rate (503).
 */
export async function priceContextFor(repos: Pick<Repos, 'catalog'>, location: LocationRow, currency: string | undefined, now: number): Promise<PriceContext> {
  const [base] = location.currencies;
  if (base === undefined) throw new Error(`location ${location.id} has no currency`);
  const target = currency ?? base;
  const supportedCurrencies = location.currencies;
  if (!isIsoCurrency(target) || !supportedCurrencies.includes(target)) {
    throw new EngineError('CURRENCY_NOT_SUPPORTED', { param: 'currency', details: { currency: target, supportedCurrencies } });
  }
  const baseScale = scaleOf(base);
  if (target === base) return { currency: base, scale: baseScale, baseScale, rate: undefined };
  const rateText = await repos.catalog.rate(base, target, now);
  const rate = rateText === undefined ? undefined : parseDecimal(rateText);
  // A rate stored before rates had bounds, and outside them, is no current rate.
  if (!rate || !rateInBounds(rate)) throw new EngineError('CURRENCY_TEMPORARILY_UNAVAILABLE', { param: 'currency', details: { currency: target } });
  return { currency: target, scale: scaleOf(target), baseScale, rate };
}

export async function locationOf(repos: Pick<Repos, 'catalog'>, locationId: string): Promise<LocationRow> {
  const location = await repos.catalog.location(locationId);
  if (!location) throw new Error(`location ${locationId} is missing`);
  return location;
}
