import type { Cart } from '../contract/cart';
import type { Storage } from '../shared/context';
import type { Repos } from '../store/port';
import { errorOf, type UpstreamAnswer } from './upstream';

/**
 * A terminal's own earlier carts at a plain v3 upstream, which may hold the stock a new cart asks for:
 * - **known ones** — held upstream first for a local cart that then ended without an order (made again with
 *   `previousCartId`, deleted, timed out) while the upstream could not be told: released with DELETE when a new
 *   cart is refused for stock, and the new cart asked for once more at once;
 * - **unknown ones** — a POST /carts that may have made a cart whose answer never came back (sent, then reset
 *   or timed out; or a 500/504): nothing can release them, so a refusal for stock waits for their hold to
 *   lapse, as long as the upstream's own hold (learnt from the `expiresAt` of carts it made for this terminal).
 * A POST /carts that never left (no connection), or that the upstream refused before doing anything (429,
 * 503, a gateway's 502), made no cart: it is no reason to wait, and a refusal for stock is a conflict at once.
 */

/** How long an unknown cart may hold stock when the upstream's hold is not known yet: longer than any cart hold (the spec's default is 15 minutes). */
export const ORPHAN_HOLD_GRACE_MS = 30 * 60 * 1000;
/** Added to the learnt hold: the Date header's one-second resolution and the trip there. */
const HOLD_MARGIN_MS = 2_000;
const HOLD_STATE = 'upstream_hold_ms';
/** Known earlier carts released per refusal, at most (each a DELETE). */
const RELEASE_BATCH = 20;

/** Whether a POST /carts answered so may have made a cart upstream whose id this terminal does not know. */
export function mayHaveMadeCart(answer: UpstreamAnswer): boolean {
  if (answer.status === 0) return answer.unsent !== true;
  return answer.status >= 500 && answer.status !== 502 && answer.status !== 503;
}

export const isStockRefusal = (answer: UpstreamAnswer): boolean => errorOf(answer)?.code === 'INVENTORY_EXHAUSTED';

/** The upstream's hold as this cart shows it (its expiry less the upstream's clock when it answered); runs in the caller's transaction. */
export async function learnHold(tx: Pick<Repos, 'outbox'>, answer: UpstreamAnswer, cart: Cart): Promise<void> {
  const expires = Date.parse(cart.expiresAt);
  if (answer.date === undefined || !Number.isFinite(expires) || expires <= answer.date) return;
  const hold = Math.min(ORPHAN_HOLD_GRACE_MS, expires - answer.date + 1_000);
  if ((await tx.outbox.state(HOLD_STATE)) !== String(hold)) await tx.outbox.setState(HOLD_STATE, String(hold));
}

/** Until when an unknown cart from a request sent at `attemptedAt` may hold stock upstream. */
export async function unknownCartLapsesAt(ctx: Storage, attemptedAt: number): Promise<number> {
  const learnt = Number(await ctx.store.repos.outbox.state(HOLD_STATE));
  return attemptedAt + (Number.isFinite(learnt) && learnt > 0 ? learnt : ORPHAN_HOLD_GRACE_MS) + HOLD_MARGIN_MS;
}

/**
 * Releases this terminal's known earlier upstream carts (DELETE, spec §4.4); answers how many still held
 * stock (204). A cart already gone (410), ordered (409) or unknown (404) is forgotten too; one the upstream
 * did not answer for is tried again at the next refusal.
 */
export async function releaseEarlierCarts(ctx: Storage, upstream: { delete(path: string): Promise<UpstreamAnswer> }): Promise<number> {
  let released = 0;
  for (const { localCartId, upstreamCartId } of await ctx.store.repos.holdings.staleUpstreamCarts(RELEASE_BATCH)) {
    const answer = await upstream.delete(`/carts/${encodeURIComponent(upstreamCartId)}`);
    if (answer.status === 204) released += 1;
    if ([204, 404, 409, 410].includes(answer.status)) await ctx.store.repos.holdings.forgetUpstreamCart(localCartId);
  }
  return released;
}
