import { EngineError } from '../domain/errors';
import type { Cart } from '../contract/cart';
import type { CartRow } from '../store/cart-repo';
import type { VoucherRow } from '../store/catalog-repo';
import { liveCart } from './cart-access';
import { cartView } from './cart-view';
import type { Clock, Storage } from '../shared/context';
import type { Repos, Tx } from '../store/port';
import { locationOf } from '../catalog/price-context';
import { mayJoin } from '../domain/voucher-policy';

/**
 * POST and DELETE /carts/{id}/vouchers. Codes match case-insensitively. Applying a code the cart already
 * has, or removing one it does not have, leaves the cart as it is. A cart holds one voucher unless every
 * voucher in it is combinable (400 INVALID_VOUCHER, reason `not_combinable`).
 */
export async function applyVoucher(ctx: Storage & Clock, cartId: string, code: string): Promise<Cart> {
  return ctx.store.transaction(async (tx) => applyVoucherIn(ctx, tx, cartId, code));
}

/** applyVoucher inside the caller's transaction (an import composes several in one). */
export async function applyVoucherIn(ctx: Clock, tx: Tx, cartId: string, code: string): Promise<Cart> {
  const now = ctx.now();
  const cart = await liveCart(tx, cartId, now);
  if (cart.kind === 'giftCard') throw new EngineError('VOUCHER_NOT_APPLICABLE_TO_GIFT_CARD', { param: 'code' });
  const voucher = await tx.catalog.voucher(code.toUpperCase());
  const reason = voucher ? await refusal(tx, voucher, cart, now) : 'unknown';
  if (reason !== undefined || !voucher) throw new EngineError('INVALID_VOUCHER', { param: 'code', details: { reason } });
  const held = (await tx.catalog.vouchers(await tx.carts.voucherCodes(cart.id))).map((v) => ({ code: v.code, combinable: v.combinable === 1 }));
  if (!mayJoin(held, { code: voucher.code, combinable: voucher.combinable === 1 })) {
    throw new EngineError('INVALID_VOUCHER', { param: 'code', details: { reason: 'not_combinable', vouchers: held.map((v) => v.code) } });
  }
  await tx.carts.addVoucher(cart.id, voucher.code);
  return cartView(tx, cart, now);
}

export async function removeVoucher(ctx: Storage & Clock, cartId: string, code: string): Promise<Cart> {
  const now = ctx.now();
  return await ctx.store.transaction(async (tx) => {
    const cart = await liveCart(tx, cartId, now);
    await tx.carts.removeVoucher(cart.id, code.toUpperCase());
    return cartView(tx, cart, now);
  });
}

/** Why a voucher cannot go on this cart now, or undefined when it can. */
async function refusal(tx: Pick<Repos, 'catalog'>, voucher: VoucherRow, cart: CartRow, now: number): Promise<string | undefined> {
  if (voucher.active !== 1) return 'unknown';
  if (voucher.validUntil !== null && voucher.validUntil <= now) return 'expired';
  if (voucher.maxRedemptions !== null && voucher.redeemed >= voucher.maxRedemptions) return 'fully_redeemed';
  if (voucher.eventIds !== null && !parseIds(voucher.eventIds).includes(cart.eventId)) return 'not_valid_for_items';
  if (voucher.amountOffCurrency !== null && voucher.amountOffCurrency !== (await locationOf(tx, cart.locationId)).currencies[0]) {
    return 'not_valid_for_items';
  }
  return undefined;
}

function parseIds(json: string): unknown[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed : [];
}
