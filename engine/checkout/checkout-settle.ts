import { EngineError } from '../domain/errors';
import type { Cart } from '../contract/cart';
import type { PrintLanguage } from '../contract/printing';
import type { Order } from '../contract/order';
import type { FailureOutcome } from '../domain/payment-attempt';
import type { AttemptRow } from '../store/checkout-repo';
import { cartView } from '../carts/cart-view';
import { redeemableCode, ticketCodes } from './codes';
import type { StoredPayment } from './checkout-begin';
import type { Ids, Journalling, Storage, Syncing, TicketSigning } from '../shared/context';
import { journalOrder } from './journal-entries';
import type { Tx } from '../store/port';
import { orderViews } from '../orders/order-view';
import { hubGiftCardsOf } from './hub-hold';
import { signTickets } from '../tickets/sign-tickets';
import { captureAttempt, failAttempt, lockAttemptGiftCards, orphanAttempt, type SettleOutcome } from './payments/lifecycle';

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
export async function settleCheckout(ctx: Storage & Ids & Syncing & Journalling & Partial<TicketSigning>, attempt: AttemptRow, outcome: SettleOutcome, now: number, language?: PrintLanguage): Promise<Settlement> {
  try {
    return await ctx.store.transaction(async (tx) => settleCheckoutIn(ctx, tx, attempt, outcome, now, language));
  } catch (error) {
    // --require-shift: the shift closed between the checkout's check and its sale (createOrder rolled back)
    if (!(error instanceof EngineError && error.code === 'SHIFT_NOT_OPEN')) throw error;
    return ctx.store.transaction(async (tx) => refuseWithoutShift(tx, attempt, now, error));
  }
}

/**
 * A cash sale under `--require-shift` whose shift was closed after the checkout began (beginCheckoutIn checked it):
 * refused as at the begin — 409 SHIFT_NOT_OPEN, nothing sold, the key forgotten — rather than sold into no shift.
 */
async function refuseWithoutShift(tx: Tx, attempt: AttemptRow, now: number, error: EngineError): Promise<Settlement> {
  await tx.locks.idempotencyKey(attempt.apiKeyId, attempt.idempotencyKey);
  await tx.locks.cart(attempt.cartId);
  await tx.locks.attempt(attempt.id);
  const current = await tx.checkout.attempt(attempt.id);
  if (current?.state !== 'pending') return alreadySettled(tx, attempt);
  await lockAttemptGiftCards(tx, current);
  return fail(tx, current, now, 'not_charged', 'forget', error);
}

/** settleCheckout inside the caller's transaction (an import composes several in one). */
export async function settleCheckoutIn(ctx: Ids & Syncing & Journalling & Partial<TicketSigning>, tx: Tx, attempt: AttemptRow, outcome: SettleOutcome, now: number, language?: PrintLanguage): Promise<Settlement> {
  // the key, the cart, then its attempt: the order every use case takes them in (store/port.ts Locks). The key
  // first: a same-key request beginning on another process must not read the key in progress and then find no
  // pending attempt — it would take the key for an abandoned one and forget it, order and all
  await tx.locks.idempotencyKey(attempt.apiKeyId, attempt.idempotencyKey);
  await tx.locks.cart(attempt.cartId);
  await tx.locks.attempt(attempt.id);
  const current = await tx.checkout.attempt(attempt.id);
  if (current?.state !== 'pending') return alreadySettled(tx, attempt);
  // its gift cards next, before the order's insert sells the held stock (inventory)
  await lockAttemptGiftCards(tx, current);
  switch (outcome.status) {
    case 'approved':
      return createOrder(ctx, tx, current, now, language);
    case 'action_required':
      return fail(tx, current, now, 'action_required', 'retire', new EngineError('PAYMENT_AUTHENTICATION_REQUIRED', { param: 'payment', details: { action: outcome.action } }));
    case 'declined':
      return fail(tx, current, now, 'declined', 'retire', new EngineError('PAYMENT_DECLINED', { param: 'payment' }));
    case 'risk_declined':
      return fail(tx, current, now, 'risk_declined', 'keep', new EngineError('RISK_CHECK_FAILED'));
    case 'unavailable':
      return fail(tx, current, now, 'unavailable', 'forget', new EngineError('PAYMENT_PROVIDER_UNAVAILABLE'));
    case 'not_charged':
      return fail(tx, current, now, 'not_charged', 'forget', new EngineError('PAYMENT_PROVIDER_UNAVAILABLE', { details: { reason: 'deadline', charged: false } }));
  }
}

/**
 * A terminal checkout whose gift-card parts went to the hub (checkout/hub-hold.ts), left pending by a crash or an
 * unanswered provider: settled as failed, never made an order on a guess (contract §10, issue #24). Its hold is
 * released at the hub (the outbox); a remainder the provider took (`charged`) goes back (the attempt is refunding);
 * its key is forgotten, so the customer may check out again. Run by the restart and the sweeper (recover-payments).
 */
export async function abandonHubCheckout(ctx: Storage, attempt: AttemptRow, charged: boolean, now: number): Promise<Settlement> {
  return ctx.store.transaction(async (tx) => {
    await tx.locks.idempotencyKey(attempt.apiKeyId, attempt.idempotencyKey);
    await tx.locks.cart(attempt.cartId);
    await tx.locks.attempt(attempt.id);
    const current = await tx.checkout.attempt(attempt.id);
    if (current?.state !== 'pending') return alreadySettled(tx, attempt);
    const error = new EngineError('PAYMENT_PROVIDER_UNAVAILABLE', { details: { reason: 'interrupted', charged } });
    if (!charged) return fail(tx, current, now, 'not_charged', 'forget', error);
    await orphanAttempt(tx, current.id);
    await tx.checkout.releaseVouchers(current.id);
    await releaseAtHub(tx, current, now);
    await tx.checkout.forgetKey(current.apiKeyId, current.idempotencyKey);
    return { error, refund: current.id };
  });
}

async function createOrder(ctx: Ids & Syncing & Journalling & Partial<TicketSigning>, tx: Tx, attempt: AttemptRow, now: number, language: PrintLanguage | undefined): Promise<Settlement> {
  const cart = await tx.carts.get(attempt.cartId);
  if (cart?.status !== 'held') {
    // Cannot happen while the cart is locked by the pending attempt; should it anyway, the money goes back.
    await orphanAttempt(tx, attempt.id);
    await tx.checkout.releaseVouchers(attempt.id);
    await releaseAtHub(tx, attempt, now);
    await tx.checkout.forgetKey(attempt.apiKeyId, attempt.idempotencyKey);
    return { error: new EngineError('CART_EXPIRED'), refund: attempt.id };
  }
  // What was charged is what the order says: the cart as priced when the attempt was made.
  const view = attempt.priced === null ? await cartView(tx, cart, now) : (JSON.parse(attempt.priced) as Pick<Cart, 'currency' | 'total' | 'items' | 'receiptLines'>);
  const orderId = ctx.newId('ord');
  const ticketCode = ticketCodes(cart.occurrenceId);
  // an imported terminal order keeps the codes the terminal printed: the same cards, spendable here (issue #24), and
  // the same tickets, known here by their codes and signed codes (issue #26)
  const stored = JSON.parse(attempt.request) as StoredPayment;
  const issuedTickets = stored.issuedTickets ?? [];
  const unsigned = view.items
    .filter((item) => item.type === 'admission')
    .flatMap((item) => Array.from({ length: item.quantity }, () => ({ id: ctx.newId('tkt'), itemId: item.id })))
    .map((ticket, i) => ({ ...ticket, code: issuedTickets[i]?.code ?? ticketCode() }));
  if (stored.issuedTickets !== undefined && issuedTickets.length !== unsigned.length) {
    throw new EngineError('INVALID_FIELD_VALUE', { param: 'tickets', details: { reason: 'count', tickets: unsigned.length } });
  }
  // every ticket sold here carries its signed code (issue #26, contract §15); one a terminal signed keeps its own
  const kept = (i: number): string | undefined => issuedTickets[i]?.signedCode;
  const signed = new Map((await signTickets(ctx.ticketKeys, tx, { orderId, occurrenceId: cart.occurrenceId, items: view.items }, unsigned.filter((_, i) => kept(i) === undefined)))
    .map((ticket) => [ticket.id, ticket]));
  const tickets = unsigned.map((ticket, i) => {
    const signedCode = kept(i);
    return signedCode === undefined ? signed.get(ticket.id) ?? ticket : { ...ticket, signedCode };
  });
  const issued = stored.issuedCodes ?? [];
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
  // last (the journal head is the last lock): a sale made here; an imported one is in its terminal's journal
  if (ctx.journal && stored.imported !== true) await journalOrder(tx, order, cart, view, now);
  // --require-shift: checked again under the journal head's lock (the entry's, or taken here), which a close takes
  // too: a shift closed since the checkout began is seen, and the cash is not sold into no shift (all rolls back)
  if (stored.cashNeedsShift === true) {
    await tx.locks.journalHead();
    if ((await tx.shifts.openId()) === undefined) throw new EngineError('SHIFT_NOT_OPEN');
  }
  return { order };
}

async function fail(tx: Tx, attempt: AttemptRow, now: number, outcome: FailureOutcome, key: 'retire' | 'keep' | 'forget', error: EngineError): Promise<Settlement> {
  await failAttempt(tx, attempt.id, outcome);
  await tx.checkout.releaseVouchers(attempt.id);
  await releaseAtHub(tx, attempt, now);
  if (key === 'forget') await tx.checkout.forgetKey(attempt.apiKeyId, attempt.idempotencyKey);
  else await tx.checkout.finishKey(attempt.apiKeyId, attempt.idempotencyKey, key === 'retire' ? 'retired' : 'completed', error.status, storedError(error));
  return { error };
}

/**
 * At a terminal, an attempt whose gift-card parts were held at the hub (checkout/hub-hold.ts) and that failed: the
 * hold goes back at the hub through the sync outbox, written in the transaction of the failure, so it is released
 * exactly once whenever the hub can be reached (engine/sync/hub-gift-cards.ts deliverRelease).
 */
export async function releaseAtHub(tx: Tx, attempt: AttemptRow, now: number): Promise<void> {
  if (hubGiftCardsOf(attempt) !== undefined) await tx.outbox.add('gift-card-release', attempt.id, now);
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
