import type { Log } from '../log';
import type { Cart, CreateCartBody } from '../contract/cart';
import { EngineError, type ErrorCode } from '../domain/errors';
import type { Clock, Storage } from '../shared/context';
import { isStockRefusal, learnHold, mayHaveMadeCart, releaseEarlierCarts } from './earlier-carts';
import { dataOf, errorOf, type Upstream } from './upstream';

/**
 * A terminal of a plain v3 upstream (no allocations, contract §10): online, each cart is held upstream
 * first, so the upstream refuses what it cannot sell before the customer pays here, and that upstream cart
 * is the one the order is later delivered into. Offline it sells only with --offline-sales (what the
 * upstream then refuses lands in the conflict inbox); without it the answer is 503 UPSTREAM_UNAVAILABLE.
 */

export interface UpstreamHold {
  /** the local cart was made: the order it becomes starts its delivery from the upstream cart */
  attach(localCartId: string): Promise<void>;
  /** the local cart was not made: the upstream hold goes */
  release(): Promise<void>;
}

const MIRRORED: readonly ErrorCode[] = ['INVENTORY_EXHAUSTED', 'OCCURRENCE_NOT_AVAILABLE'];

export async function holdUpstreamFirst(
  ctx: Storage & Clock,
  upstream: Upstream,
  body: CreateCartBody,
  options: { offlineSales: boolean; logger: Log; gated: () => boolean; limited: (retryAfter: number | undefined) => void },
): Promise<UpstreamHold | undefined> {
  // While the terminal waits out a 429 or a silent upstream, nothing is sent: the cart is treated as offline.
  if (options.gated()) {
    if (!options.offlineSales) throw new EngineError('UPSTREAM_UNAVAILABLE', { details: { reason: 'offline_sales_off' } });
    return undefined;
  }
  const sentAt = ctx.now();
  // A cart made again here (spec: previousCartId) carries its upstream cart along: the upstream releases that
  // one's hold with the new cart, so the same places can be chosen again.
  const previous = body.previousCartId === undefined ? null : await ctx.store.repos.holdings.upstreamCartOf(body.previousCartId);
  const request = { items: body.items, ...(body.currency !== undefined && { currency: body.currency }), ...(previous !== null && { previousCartId: previous }) };
  let answer = await upstream.post('/carts', request);
  // Refused for stock that an earlier cart of this terminal may hold upstream (its local cart ended while the
  // upstream could not be told): those are released, and the cart asked for once more.
  if (isStockRefusal(answer) && (await releaseEarlierCarts(ctx, upstream)) > 0) answer = await upstream.post('/carts', request);
  if (answer.status === 429) options.limited(answer.retryAfter);
  const cart = answer.status === 201 ? dataOf<Cart>(answer) : undefined;
  if (cart) {
    const made = answer;
    return {
      attach: (localCartId) =>
        ctx.store.transaction(async (tx) => {
          await tx.holdings.linkUpstreamCart(localCartId, cart.id, sentAt);
          await learnHold(tx, made, cart);
        }),
      release: async () => void (await upstream.delete(`/carts/${encodeURIComponent(cart.id)}`)),
    };
  }
  const error = errorOf(answer);
  const code = MIRRORED.find((known) => known === error?.code);
  if (code) throw new EngineError(code, { details: { ...error?.details, upstream: true } });
  if (answer.status === 0 || answer.status >= 500 || answer.status === 429) {
    if (!options.offlineSales) throw new EngineError('UPSTREAM_UNAVAILABLE', { details: { reason: 'offline_sales_off' } });
    // A lost answer may have left a hold upstream: the delivery then waits it out instead of calling its own
    // hold a conflict (earlier-carts.ts). A request that never left, or one refused before anything was done, left none.
    if (!mayHaveMadeCart(answer)) return undefined;
    return { attach: (localCartId) => ctx.store.repos.holdings.linkUpstreamCart(localCartId, null, sentAt), release: async () => undefined };
  }
  // Any other refusal (a key problem, a request the upstream reads differently): the local rules decide.
  options.logger.warn({ status: answer.status, code: error?.code }, 'the upstream refused to hold a cart first');
  return undefined;
}
