import { EngineError } from '../domain/errors';
import type { Repos } from '../store/port';

/**
 * The base currency of the engine's location: the first location's first currency (contract §2 lists a
 * location's base currency first). A shift's money is in it; undefined while the catalog has no location.
 */
export async function baseCurrencyIn(tx: Pick<Repos, 'catalog'>): Promise<string | undefined> {
  const [first] = await tx.catalog.locations();
  return first?.currencies[0];
}

/** 400 INVALID_FIELD_VALUE (param names the field) for money that is not in the shift's currency. */
export function assertShiftCurrency(money: { readonly currency: string }, currency: string, param: string): void {
  if (money.currency !== currency) throw new EngineError('INVALID_FIELD_VALUE', { param, details: { reason: 'not_base_currency', currency } });
}
