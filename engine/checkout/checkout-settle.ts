import { EngineError } from '../domain/errors';
import type { Cart } from '../contract/cart';
import type { PrintLanguage } from '../contract/printing';
import type { Order } from '../contract/order';
import type { FailureOutcome } from '../domain/payment-attempt';
import type { AttemptRow } from '../store/checkout-repo';
import { cartView } from '../carts/cart-view';
import { redeemableCode, ticketCodes } from './codes';
import type { StoredPayment } from './checkout-begin';
import type { EngineContext } from '../shared/context';
import type { Tx } from '../store/port';
import { orderViews } from '../orders/order-view';
import { captureAttempt, failAttempt, orphanAttempt, type SettleOutcome } from './payments/lifecycle';

/**
 * The second transaction of POST /orders: what the provider said becomes the outcome. Approved: the cart
 * becomes an order (held stock sold, vouchers redeemed, tickets and gift cards issued) and the key keeps
 * the answer for replays. 402: the key is retired. 403 risk: the key keeps the answer. Provider failure:
 * the key is forgotten, safe to retry. Errors are returned, not thrown, so that what was written commits.
 * `not_charged`: the provider did not answer the charge in time, and said of the reference that nothing
 * was charged (and never will be): the same as unavailable.
 */


export type Settlement =
  /** `replayed`: the order was made by another settlement of the attempt (another process's), not this one */
  | { readonly order: Order; readonly refund?: undefined; readonly replayed?: true }
  | { readonly error: EngineError; readonly refund?: string };

/**
 * `language`: the checkout request's language, kept with the order in the same transaction (its tickets
 * and receipt print in it); a settlement with no request behind it (a restart's) leaves the default.
 */
export async function settleCheckout(ctx: EngineContext, attempt: AttemptRow, outcome: SettleOutcome, now: number, language?: PrintLanguage): Promise<Settlement> {
  return ctx.store.transaction(async (tx) => settleCheckoutIn(ctx, tx, attempt, outcome, now, language));
}

/** settleCheckout inside the caller's transaction (an import composes several in one). */
export async function settleCheckoutIn(ctx: EngineContext, tx: Tx, attempt: AttemptRow, outcome: SettleOutcome, now: number, language?: PrintLanguage): Promise<Settlement> {
  // the key, the cart, then its attempt: the order every use case takes them in (store/port.ts Locks). The key
  // first: a same-key request beginning on another process must not read the key in progress and then find no
  // pending attempt — it would take the key for an abandoned one and forget it, order and all
  await tx.locks.idempotencyKey(attempt.apiKeyId, attempt.idempotencyKey);
  await tx.locks.cart(attempt.cartId);
  await tx.locks.attempt(attempt.id);
  const current = await tx.checkout.attempt(attempt.id);
  if (current?.state !== 'pending') return alreadySettled(tx, attempt);
  switch (outcome.status) {
    case 'approved':
      return createOrder(ctx, tx, current, now, language);
    case 'action_required':
      return fail(tx, current, 'action_required', 'retire', new EngineError('PAYMENT_AUTHENTICATION_REQUIRED', { param: 'payment', details: { action: outcome.action } }));
    case 'declined':
      return fail(tx, current, 'declined', 'retire', new EngineError('PAYMENT_DECLINED', { param: 'payment' }));
    case 'risk_declined':
      return fail(tx, current, 'risk_declined', 'keep', new EngineError('RISK_CHECK_FAILED'));
    case 'unavailable':
      return fail(tx, current, 'unavailable', 'forget', new EngineError('PAYMENT_PROVIDER_UNAVAILABLE'));
    case 'not_charged':
      return fail(tx, current, 'not_charged', 'forget', new EngineError('PAYMENT_PROVIDER_UNAVAILABLE', { details: { reason: 'deadline', charged: false } }));
  }
}

async function createOrder(ctx: EngineContext, tx: Tx, attempt: AttemptRow, now: number, language: PrintLanguage | undefined): Promise<Settlement> {
  const cart = await tx.carts.get(attempt.cartId);
  if (cart?.status !== 'held') {
    // Cannot happen while the cart is locked by the pending attempt; should it anyway, the money goes back.
    await orphanAttempt(tx, attempt.id);
    await tx.checkout.releaseVouchers(attempt.id);
    await tx.checkout.forgetKey(attempt.apiKeyId, attempt.idempotencyKey);
    return { error: new EngineError('CART_EXPIRED'), refund: attempt.id };
  }
  // What was charged is what the order says: the cart as priced when the attempt was made.
  const view = attempt.priced === null ? await cartView(tx, cart, now) : (JSON.parse(attempt.priced) as Pick<Cart, 'currency' | 'total' | 'items' | 'receiptLines'>);
  const orderId = ctx.newId('ord');
  const ticketCode = ticketCodes(cart.occurrenceId);
  const tickets = view.items
    .filter((item) => item.type === 'admission')
    .flatMap((item) => Array.from({ length: item.quantity }, () => ({ id: ctx.newId('tkt'), itemId: item.id, code: ticketCode() })));
  // an imported terminal order keeps the codes the terminal printed: the same cards, spendable here (issue #24)
  const issued = (JSON.parse(attempt.request) as StoredPayment).issuedCodes ?? [];
  const giftCards = view.items
    .filter((item) => item.type === 'giftCard')
    .map((item, i) => ({ code: issued[i] ?? redeemableCode(), itemId: item.id, amount: item.unitPrice.amount, currency: item.unitPrice.currency }));
  const row = {
    id: orderId,
    cartId: cart.id,
    createdAt: now,
    currency: view.currency,
    total: view.total.amount,
    lines: JSON.stringify({ items: view.items, receiptLines: view.receiptLines }),
    apiKeyId: attempt.apiKeyId,
  };
  await tx.orders.insert(row, tickets, giftCards);
  await captureAttempt(tx, attempt, orderId, now);
  if (language !== undefined) await tx.orderLanguages.remember(orderId, language);
  if (ctx.syncing) await tx.outbox.add('order', orderId, now);
  // its payment is its attempt's, captured just now (orders/order-view.ts)
  const [order] = await orderViews(tx, [{ ...row, payment: '', status: 'confirmed', cancelledAt: null }]);
  if (!order) throw new Error(`order ${orderId} has no view`);
  await tx.checkout.finishKey(attempt.apiKeyId, attempt.idempotencyKey, 'completed', 201, order);
  return { order };
}

async function fail(tx: Tx, attempt: AttemptRow, outcome: FailureOutcome, key: 'retire' | 'keep' | 'forget', error: EngineError): Promise<Settlement> {
  await failAttempt(tx, attempt.id, outcome);
  await tx.checkout.releaseVouchers(attempt.id);
  if (key === 'forget') await tx.checkout.forgetKey(attempt.apiKeyId, attempt.idempotencyKey);
  else await tx.checkout.finishKey(attempt.apiKeyId, attempt.idempotencyKey, key === 'retire' ? 'retired' : 'completed', error.status, storedError(error));
  return { error };
}

/** An error kept for replays: its code, param and details (the message follows the replay's language). */
export function storedError(error: EngineError) {
  return { error: { code: error.code, param: error.param, details: error.details } };
}

/** Another path (a replay racing a restart's settlement) settled this attempt first: answer as it did. */
async function alreadySettled(tx: Tx, attempt: AttemptRow): Promise<Settlement> {
  const current = await tx.checkout.attempt(attempt.id);
  if (current?.orderId) {
    const order = await tx.orders.get(current.orderId);
    const [view] = order ? await orderViews(tx, [order]) : [];
    if (view) return { order: view, replayed: true };
  }
  return { error: new EngineError('IDEMPOTENCY_KEY_FAILED') };
}
