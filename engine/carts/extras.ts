import { EngineError } from '../domain/errors';
import { LIMITS } from '../domain/limits';
import type { CartLine } from '../domain/pricing';
import type { CartRow } from '../store/cart-repo';
import type { ExtraRow } from '../store/catalog-repo';
import type { Repos } from '../store/port';

/** Shared by the three extras use cases: the extras a cart may take, and the line an item path names. */

export async function offeredExtras(repos: Pick<Repos, 'catalog'>, cart: CartRow): Promise<Map<string, ExtraRow>> {
  return new Map(cart.kind === 'ticket' ? (await repos.catalog.extras(cart.eventId)).map((extra) => [extra.id, extra]) : []);
}

export function maxQuantityOf(extra: ExtraRow | undefined): number {
  return Math.min(extra?.maxQuantity ?? LIMITS.maxQuantity, LIMITS.maxQuantity);
}

export function requireWithin(quantity: number, extra: ExtraRow | undefined, param: string): void {
  const maxQuantity = maxQuantityOf(extra);
  if (quantity > maxQuantity) {
    throw new EngineError('INVALID_FIELD_VALUE', { param, details: { reason: 'max_quantity', maxQuantity, requestedQuantity: quantity } });
  }
}

/** The extra line `itemId` names; undefined when the cart holds no such line; 400 for an admission line. */
export function extraLine(lines: readonly CartLine[], itemId: string): CartLine | undefined {
  const line = lines.find((candidate) => candidate.id === itemId);
  if (line && line.type !== 'extra') throw new EngineError('ITEM_NOT_MODIFIABLE', { param: 'itemId', details: { itemType: line.type } });
  return line;
}
