import { EngineError } from '../domain/errors';
import type { Money } from '../domain/money';
import type { PaymentRequest, PlaceOrderBody } from '../contract/order';
import type { AttemptRow } from '../store/checkout-repo';
import { grants, usesCart } from '../domain/scopes';
import { maxTendered, type PaymentMethod } from '../domain/payment-attempt';
import { scaleOf } from '../domain/currencies';
import { voucherConflict } from '../domain/voucher-policy';
import { liveCart } from '../carts/cart-access';
import { cartView } from '../carts/cart-view';
import type { GiftCardGuesses, Ids, PaymentLease, Storage } from '../shared/context';
import type { Repos, Tx } from '../store/port';
import { openAttempt } from './payments/lifecycle';
import type { ImportGiftCardPayment } from '../contract/gift-card';
import { checkIssuedCodes, heldGiftCards, splitGiftCards, type GiftCardSplit } from './checkout-gift-cards';
import { cardsForHub, type HubGiftCards } from './hub-hold';

/**
 * The first transaction of POST /orders, before any payment: the idempotency key's state, the cart, the
 * expected total, the payment's own fields and the vouchers' remaining redemptions. Anything refused here
 * is a 4xx that leaves the key unused. On success the payment attempt, the voucher reservations and the
 * key (in progress) are committed together, before the provider is called.
 */

export interface CheckoutRequest {
  readonly apiKeyId: string;
  readonly apiKeyScopes: readonly string[];
  /** who the key's carts belong to (auth.ts; default its id); another owner's cart is not found */
  readonly apiKeyOwner?: string;
  readonly idempotencyKey: string;
  readonly body: PlaceOrderBody;
  /**
   * an imported terminal order (sync/import-orders.ts): gift-card parts held at this hub under the terminal's
   * reference, and the codes the terminal issued for its gift-card items (the cards are the same money here)
   */
  readonly imported?: {
    readonly giftCards?: ImportGiftCardPayment | undefined;
    readonly issuedCodes?: readonly string[] | undefined;
    /** the tickets the terminal issued (issue #26), checked and normalized by the import */
    readonly tickets?: readonly IssuedTicket[] | undefined;
  };
  /** a terminal's checkout: its gift cards are held at the hub after this transaction, not here (checkout/hub-hold.ts) */
  readonly giftCardsAtHub?: boolean;
  /** `--require-shift` (contract §14): cash — also the cash remainder of a split — only while a shift is open */
  readonly cashNeedsShift?: boolean;
}

export type CheckoutStart =
  | { readonly kind: 'replay'; readonly status: number; readonly body: unknown }
  | { readonly kind: 'charge'; readonly attempt: AttemptRow };

export async function beginCheckout(ctx: Storage & Ids & PaymentLease & GiftCardGuesses, request: CheckoutRequest, now: number): Promise<CheckoutStart> {
  return ctx.store.transaction(async (tx) => beginCheckoutIn(ctx, tx, request, now));
}

/** beginCheckout inside the caller's transaction (an import composes several in one). */
export async function beginCheckoutIn(ctx: Ids & PaymentLease & GiftCardGuesses, tx: Tx, request: CheckoutRequest, now: number): Promise<CheckoutStart> {
  const { apiKeyId, idempotencyKey, body } = request;
  // the key, then the cart: one process at a time decides on either (store/port.ts Locks)
  await tx.locks.idempotencyKey(apiKeyId, idempotencyKey);
  const existing = await tx.checkout.key(apiKeyId, idempotencyKey, now);
  if (existing) {
    if (existing.cartId !== body.cartId) throw new EngineError('IDEMPOTENCY_KEY_REUSED', { param: 'cartId' });
    if (existing.state === 'retired') throw new EngineError('IDEMPOTENCY_KEY_FAILED');
    if (existing.state === 'completed') return { kind: 'replay', status: existing.status ?? 500, body: JSON.parse(existing.body ?? 'null') };
    // In progress. Running nowhere — a crash or a lost provider answer left it open, and its lease ran out or
    // was given up: ask again with the same reference; the provider deduplicates on it, so nothing is charged
    // twice. Still leased: a request of another engine process sharing the database works on it (contract §16).
    const open = await tx.checkout.pendingForKey(apiKeyId, idempotencyKey);
    if (open) {
      if (!(await tx.checkout.claimAttempt(open.id, now, now + ctx.paymentLeaseMs))) throw new EngineError('IDEMPOTENCY_KEY_IN_PROGRESS');
      return { kind: 'charge', attempt: open };
    }
    await tx.checkout.forgetKey(apiKeyId, idempotencyKey);
  }

  const owner = await tx.carts.owner(body.cartId);
  if (owner && !usesCart({ keyId: apiKeyId, owner: request.apiKeyOwner ?? apiKeyId, scopes: request.apiKeyScopes }, owner.owner)) {
    throw new EngineError('RESOURCE_NOT_FOUND', { param: 'cartId' });
  }
  const cart = await liveCart(tx, body.cartId, now);
  // spec §7.3: after a risk decline no payment method will succeed for this cart
  if (await tx.checkout.riskDeclined(cart.id)) throw new EngineError('RISK_CHECK_FAILED');
  const view = await cartView(tx, cart, now);
  const total = view.total;
  if (body.expectedTotal.amount !== total.amount || body.expectedTotal.currency !== total.currency) {
    throw new EngineError('EXPECTED_TOTAL_MISMATCH', { param: 'expectedTotal', details: { total } });
  }
  const guess = { throttle: ctx.giftCardGuesses, keyId: apiKeyId, now };
  const held = request.imported?.giftCards;
  // a terminal's gift cards are its hub's: held there after this transaction (checkout/hub-hold.ts), not split here
  const atHub = request.giftCardsAtHub === true && held === undefined ? cardsForHub(guess, body.payment, cart.kind, total) : undefined;
  const split: GiftCardSplit = atHub !== undefined
    ? { parts: [], remaining: total }
    : held === undefined
      ? await splitGiftCards(tx, guess, body.payment, cart.kind, total)
      : await heldGiftCards(tx, guess, held, cart.kind, total);
  const { method, payment } = atHub !== undefined
    ? hubPayment(body.payment, total, request.apiKeyScopes)
    : split.parts.length > 0 && split.remaining.amount === 0 && held === undefined
      ? { method: 'giftCard' as const, payment: {} }
      : checkPayment(body.payment, split.remaining, request.apiKeyScopes);
  // refused before anything is held or charged: the transaction rolls back and the key stays unused
  if (request.cashNeedsShift === true && method === 'cash' && (await tx.shifts.openId()) === undefined) throw new EngineError('SHIFT_NOT_OPEN');
  const stored: StoredPayment = {
    ...payment,
    ...(atHub !== undefined && { hub: atHub }),
    ...(split.parts.length > 0 && { giftCards: split.parts.map(({ code, amount }) => ({ code, amount })) }),
    ...(split.holdReference !== undefined && { giftCardHold: split.holdReference }),
    ...(request.imported?.issuedCodes !== undefined && { issuedCodes: await checkIssuedCodes(tx, request.imported.issuedCodes) }),
    ...(request.imported?.tickets !== undefined && { issuedTickets: [...request.imported.tickets] }),
    ...(request.imported !== undefined && { imported: true }),
    ...(request.cashNeedsShift === true && method === 'cash' && { cashNeedsShift: true }),
  };
  const attempt = {
    id: ctx.newId('pay'),
    cartId: cart.id,
    apiKeyId,
    idempotencyKey,
    method,
    // what the method takes: the remainder after the gift cards (method giftCard: the whole total they paid)
    amount: method === 'giftCard' ? total.amount : split.remaining.amount,
    currency: total.currency,
    request: JSON.stringify(stored),
    priced: JSON.stringify({ currency: view.currency, total: view.total, items: view.items, receiptLines: view.receiptLines }),
    createdAt: now,
  };
  // an imported order's parts are held under the terminal's reference already (heldGiftCards)
  const opened = await openAttempt(tx, attempt, split.holdReference === undefined ? split.parts : [], now);
  // this request works on it: leased, so no other process resumes or sweeps it while the provider is asked
  await tx.checkout.claimAttempt(attempt.id, now, now + ctx.paymentLeaseMs);
  await reserveVouchers(tx, attempt.id, await tx.carts.voucherCodes(cart.id), now);
  await tx.checkout.beginKey(apiKeyId, idempotencyKey, cart.id, now);
  return { kind: 'charge', attempt: opened };
}

/**
 * A terminal's payment with gift cards at its hub, before the hub has said what the cards take: the method's own
 * fields, checked as for the whole total — but cash keeps only the `tendered` given (its amount is checked against
 * the remainder once the parts are held, checkout/hub-hold.ts); `giftCard` has no fields of its own.
 */
function hubPayment(payment: PaymentRequest, total: Money, scopes: readonly string[]): { method: PaymentMethod; payment: StoredPayment } {
  if (payment.method === 'giftCard') return { method: 'giftCard', payment: {} };
  if (payment.method !== 'cash') return checkPayment(payment, total, scopes);
  const { method } = checkPayment({ ...payment, tendered: undefined }, total, scopes);
  if (payment.tendered === undefined) return { method, payment: {} };
  if (payment.tendered.currency !== total.currency) {
    throw new EngineError('INVALID_FIELD_VALUE', { param: 'payment.tendered.currency', details: { reason: 'not_cart_currency', total } });
  }
  return { method, payment: { tendered: payment.tendered } };
}

/**
 * The payment fields that go with each method; what is kept of them (a token, never a card number). A total
 * of 0 needs no payment: card, cash or `none` become an order paid with `none`, and no provider is asked.
 */
function checkPayment(payment: PaymentRequest, total: Money, scopes: readonly string[]): { method: PaymentMethod; payment: StoredPayment } {
  // giftCard whose cards took nothing: a total of 0 (the split refused what cards leave open, 402 details.remaining)
  if (payment.method === 'giftCard') return { method: 'none', payment: {} };
  if (payment.method === 'none') {
    if (total.amount !== 0) throw new EngineError('INVALID_FIELD_VALUE', { param: 'payment.method', details: { reason: 'payment_required', total } });
    const stray = (['token', 'authenticationResult', 'tendered', 'reference'] as const).find((field) => payment[field] !== undefined);
    if (stray) throw new EngineError('INVALID_FIELD_VALUE', { param: `payment.${stray}`, details: { reason: 'not_for_none' } });
    return { method: 'none', payment: {} };
  }
  const checked = checkPaid(payment, total, scopes);
  if (total.amount === 0 && payment.method !== 'external') return { method: 'none', payment: {} };
  return { method: payment.method, payment: checked };
}

function checkPaid(payment: PaymentRequest, total: Money, scopes: readonly string[]): StoredPayment {
  if (payment.method !== 'external' && payment.reference !== undefined) {
    throw new EngineError('INVALID_FIELD_VALUE', { param: 'payment.reference', details: { reason: 'external_only' } });
  }
  // cash is staff's: a key that may only check out (the kiosk's orders:checkout) sells by card
  if (payment.method === 'cash' && !grants(scopes, 'orders:write')) {
    throw new EngineError('INSUFFICIENT_PERMISSIONS', { param: 'payment.method', details: { requiredScope: 'orders:write' } });
  }
  if (payment.method === 'external') {
    if (!grants(scopes, 'orders:import')) throw new EngineError('INSUFFICIENT_PERMISSIONS', { param: 'payment.method', details: { requiredScope: 'orders:import' } });
    if (payment.reference === undefined) throw new EngineError('MISSING_REQUIRED_FIELD', { param: 'payment.reference' });
    const stray = (['token', 'authenticationResult', 'tendered'] as const).find((field) => payment[field] !== undefined);
    if (stray) throw new EngineError('INVALID_FIELD_VALUE', { param: `payment.${stray}`, details: { reason: 'not_for_external' } });
    return { reference: payment.reference };
  }
  if (payment.method === 'card') {
    if (payment.token === undefined) throw new EngineError('MISSING_REQUIRED_FIELD', { param: 'payment.token' });
    if (payment.tendered !== undefined) throw new EngineError('INVALID_FIELD_VALUE', { param: 'payment.tendered', details: { reason: 'cash_only' } });
    return { token: payment.token, ...(payment.authenticationResult !== undefined && { authenticationResult: payment.authenticationResult }) };
  }
  if (payment.token !== undefined || payment.authenticationResult !== undefined) {
    const param = payment.token !== undefined ? 'payment.token' : 'payment.authenticationResult';
    throw new EngineError('INVALID_FIELD_VALUE', { param, details: { reason: 'card_only' } });
  }
  const tendered = payment.tendered ?? total;
  if (tendered.currency !== total.currency) {
    throw new EngineError('INVALID_FIELD_VALUE', { param: 'payment.tendered.currency', details: { reason: 'not_cart_currency', total } });
  }
  if (tendered.amount < total.amount) {
    throw new EngineError('INVALID_FIELD_VALUE', { param: 'payment.tendered.amount', details: { reason: 'less_than_total', total } });
  }
  const most = maxTendered(total.amount, scaleOf(total.currency));
  if (tendered.amount > most) {
    throw new EngineError('INVALID_FIELD_VALUE', { param: 'payment.tendered.amount', details: { reason: 'more_than_max_tendered', total, maxTendered: { amount: most, currency: total.currency } } });
  }
  return { tendered };
}

/** A ticket a terminal issued (issue #26): its code and, when it signed it, its signed code. */
export interface IssuedTicket {
  readonly code: string;
  readonly signedCode?: string;
}

export interface StoredPayment {
  /** at a terminal: the gift cards asked for, held at its hub after this transaction (checkout/hub-hold.ts) */
  hub?: HubGiftCards;
  reference?: string;
  /** the gift-card parts held for the attempt, in the order given (issue #24) */
  giftCards?: { code: string; amount: number }[];
  /** an imported terminal order: the reference its parts were held under at this hub */
  giftCardHold?: string;
  /** an imported terminal order: the codes the terminal issued for its gift-card items, in item order */
  issuedCodes?: string[];
  /** an imported terminal order: the tickets the terminal issued, in ticket order (issue #26): the hub keeps their codes */
  issuedTickets?: IssuedTicket[];
  /** an imported terminal order (sync/import-orders.ts): in that terminal's journal, not in this engine's (issue #25) */
  imported?: true;
  /** `--require-shift` cash: settled only while a shift is open (checkout-settle.ts checks again under the journal head) */
  cashNeedsShift?: true;
  token?: string;
  authenticationResult?: string;
  tendered?: Money;
}

async function reserveVouchers(tx: Pick<Repos, 'catalog' | 'checkout'>, attemptId: string, codes: readonly string[], now: number): Promise<void> {
  const vouchers = await tx.catalog.vouchers(codes);
  // The catalog may have changed a voucher's terms since it went on the cart: the policy holds at checkout too.
  const conflict = voucherConflict(vouchers.map((voucher) => ({ code: voucher.code, combinable: voucher.combinable === 1 })));
  if (conflict !== undefined) throw new EngineError('INVALID_VOUCHER', { param: 'vouchers', details: { code: conflict, reason: 'not_combinable' } });
  for (const voucher of vouchers) {
    if (voucher.validUntil !== null && voucher.validUntil <= now) {
      throw new EngineError('INVALID_VOUCHER', { param: 'vouchers', details: { code: voucher.code, reason: 'expired' } });
    }
  }
  const usedUp = await tx.checkout.reserveVouchers(attemptId, codes);
  if (usedUp !== undefined) throw new EngineError('INVALID_VOUCHER', { param: 'vouchers', details: { code: usedUp, reason: 'fully_redeemed' } });
}
