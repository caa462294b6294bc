import { EngineError } from '../../domain/errors';
import { chargeNeedsProvider, refundNeedsProvider, type FailureOutcome, type PaymentMethod } from '../../domain/payment-attempt';
import type { PaymentView } from '../../contract/order';
import type { Clock, Durability, Payments, Storage } from '../../shared/context';
import type { AttemptRow, NewAttempt } from '../../store/checkout-repo';
import type { Tx } from '../../store/port';
import type { StoredPayment } from '../checkout-begin';
import type { ChargeOutcome } from './provider';
import type { GiftCardEntryRow } from '../../store/gift-card-repo';
import type { PlannedPart } from '../../domain/gift-cards';
import { holdParts, lockCardsOf, refundParts, releaseHolds, settleHolds, voidIssued } from './gift-card-ledger';

export { planPayment as planGiftCardPayment, refuseThrottled as refuseGiftCardGuesses } from './gift-card-ledger';

/**
 * The payment lifecycle (issue #23), in one module: the only caller of the payment provider (charge, status,
 * refund) and the only writer of a payment attempt's state. The use cases (place-order, checkout-settle,
 * cancel-order, recover-payments) decide when; this module asks the provider and moves the attempt along the
 * transitions of domain/payment-attempt.ts. An order's payment view is built here from its attempt.
 *
 * Gift cards (issue #24): their ledger moves with the attempt, through this module alone (gift-card-ledger.ts):
 * the parts are held when the attempt opens, settled with its capture, dropped with its failure or orphaning,
 * and put back onto the cards with its cancellation.
 *
 * Provider calls happen outside any transaction and after the attempt's state is on the disk (ctx.whenDurable);
 * state writes happen in the caller's transaction (`tx`).
 */

/** What became of a charge: the provider's outcome, or `not_charged` when only its status could be asked. */
export type SettleOutcome = ChargeOutcome | { readonly status: 'not_charged' };


// --- the provider --------------------------------------------------------------------------------------

/**
 * Asks the provider, within the provider deadline (ctx.payments is bounded). When the charge has no answer
 * in time (or it was lost), the attempt is settled by asking the provider what became of its reference —
 * approved, or not charged and never to be — never by guessing. When that question has no answer either,
 * the attempt stays pending and the key in progress: the answer is 502, a retry with the same key asks
 * again under the same reference, and so do the sweeper and a restart.
 */
export async function chargeAttempt(ctx: Payments, attempt: AttemptRow): Promise<SettleOutcome> {
  // Cash was taken at the desk; an external payment where the order was first sold; a total of 0 needs none.
  if (!chargeNeedsProvider(attempt.method)) return { status: 'approved' };
  const payment = JSON.parse(attempt.request) as StoredPayment;
  try {
    return await ctx.payments.charge({
      reference: attempt.id,
      shopperReference: attempt.cartId,
      amount: { amount: attempt.amount, currency: attempt.currency },
      token: payment.token ?? '',
      ...(payment.authenticationResult !== undefined && { authenticationResult: payment.authenticationResult }),
    });
  } catch (error) {
    return await askProvider(ctx, attempt.id, error);
  }
}

/**
 * What the provider says of an open attempt's charge: asked of the provider for a card (throws 502 when it
 * cannot say); cash, external and zero payments were taken without a provider, so they stand.
 */
export async function chargeOutcome(ctx: Payments, attempt: AttemptRow): Promise<SettleOutcome> {
  return chargeNeedsProvider(attempt.method) ? askProvider(ctx, attempt.id) : { status: 'approved' };
}

/** What the provider says of a reference whose charge went unanswered; throws 502 when it cannot say. */
async function askProvider(ctx: Payments, reference: string, cause?: unknown): Promise<SettleOutcome> {
  let status: Awaited<ReturnType<Payments['payments']['status']>>;
  try {
    status = await ctx.payments.status(reference);
  } catch (error) {
    const reason = [cause, error].map((e) => (e instanceof Error ? e.message : 'no answer')).join('; ');
    throw new EngineError('PAYMENT_PROVIDER_UNAVAILABLE', { details: { reason } });
  }
  // refunded: the money went back on the provider's side, so no order is made of it
  return status === 'approved' ? { status: 'approved' } : { status: 'not_charged' };
}

/**
 * Gives back the money of an attempt in `refunding`. A card refund is asked of the provider (idempotent per
 * reference, so asking again after a crash or a lost answer refunds nothing twice); the attempt — and so its
 * order's payment, derived from it — is marked refunded only once the provider has confirmed. Returns whether it is refunded now; when
 * not, the attempt stays `refunding` and the sweeper and the next start ask again.
 */
export async function refundAttempt(ctx: Storage & Clock & Durability & Payments, attemptId: string): Promise<boolean> {
  const attempt = await ctx.store.repos.checkout.attempt(attemptId);
  if (attempt?.state !== 'refunding') return attempt?.state === 'refunded';
  if (refundNeedsProvider(attempt.method)) {
    try {
      // the attempt's `refunding` is on the disk before the provider hears of it: a refund a restart can find
      await ctx.whenDurable();
      await ctx.payments.refund(attemptId);
    } catch {
      return false; // no confirmation (deadline, lost answer): still refunding, asked again by the sweeper
    }
  }
  await ctx.store.transaction(async (tx) => confirmRefund(tx, attemptId, ctx.now()));
  return true;
}

// --- the attempt's state, in the caller's transaction -----------------------------------------------

/**
 * A new attempt, `pending`, before any provider hears of it, with its gift-card parts held (the balance is
 * checked under the cards' locks: 402 GIFT_CARD_INSUFFICIENT_BALANCE when another checkout took it meanwhile).
 */
export async function openAttempt(tx: Tx, attempt: NewAttempt, giftCards: readonly PlannedPart[] = [], now = attempt.createdAt): Promise<AttemptRow> {
  await tx.checkout.insertAttempt(attempt);
  if (giftCards.length > 0) await holdParts(tx, attempt.id, giftCards, attempt.currency, now);
  return { ...attempt, state: 'pending', outcome: null, orderId: null, refundedAt: null };
}

/**
 * Holds gift-card parts for a terminal's checkout at its hub, under the terminal's `reference` (contract §10, §13):
 * they become redemptions when the terminal's order is imported, or are dropped by its release.
 */
export async function holdForTerminal(tx: Tx, reference: string, parts: readonly PlannedPart[], currency: string, now: number): Promise<void> {
  await refuseOwnAttempt(tx, reference, 'reference');
  await holdParts(tx, reference, parts, currency, now);
}

/**
 * What a pending attempt charges, once it is known: at a terminal, what its gift-card parts held at the hub leave
 * for `method` (checkout/hub-hold.ts), before the provider hears of it. In the caller's transaction.
 */
export async function chargeRemainder(tx: Tx, attemptId: string, charge: { method: PaymentMethod; amount: number; request: string }): Promise<void> {
  if (!(await tx.checkout.setCharge(attemptId, charge))) throw new Error(`payment attempt ${attemptId} is no longer pending`);
}

/** A terminal's checkout failed: its holds at the hub are dropped. Returns how many there were. */
export async function releaseForTerminal(tx: Tx, reference: string): Promise<number> {
  await refuseOwnAttempt(tx, reference, 'reference');
  return releaseHolds(tx, reference);
}

/**
 * A terminal's hold reference shares the ledger's holder column with this engine's own payment attempts: one of
 * them named as a reference (400 INVALID_FIELD_VALUE reason `own_attempt`) would let a `sync` key release the
 * holds of a checkout in progress here (its order then made with the cards never debited), add holds that its
 * capture settles into an order that did not ask for them, or let an import settle them into another order.
 */
export async function refuseOwnAttempt(tx: Tx, reference: string, param: string): Promise<void> {
  if (await tx.checkout.attempt(reference)) throw new EngineError('INVALID_FIELD_VALUE', { param, details: { reason: 'own_attempt' } });
}

/** The holder of an attempt's gift-card holds: the attempt, or (an imported terminal order) the terminal's hold reference. */
function holderOf(attempt: AttemptRow): string {
  return (JSON.parse(attempt.request) as StoredPayment).giftCardHold ?? attempt.id;
}

/**
 * Whether the attempt has parts in this engine's gift-card ledger: its own holds (the request's `giftCards`, held by
 * openAttempt) or, an imported terminal order at a hub, the terminal's hold reference (`giftCardHold`). Parts a
 * terminal held at its hub (`hub`) are the hub's, not in this ledger. An attempt without either has no entries: the
 * ledger is not read for it (a card sale's settlement and answer skip three look-ups).
 */
export function usesGiftCardLedger(attempt: AttemptRow): boolean {
  const payment = JSON.parse(attempt.request) as StoredPayment;
  return (payment.giftCards?.length ?? 0) > 0 || payment.giftCardHold !== undefined;
}

/**
 * The cards an attempt holds, and those its order paid with or issued: locked right after the attempt, before any
 * inventory or voucher row (the documented lock order). Settlement and cancellation call it first.
 */
export async function lockAttemptGiftCards(tx: Tx, attempt: AttemptRow | undefined, orderId?: string): Promise<void> {
  const holder = attempt !== undefined && usesGiftCardLedger(attempt) ? holderOf(attempt) : undefined;
  if (holder === undefined && orderId === undefined) return;
  await lockCardsOf(tx, { ...(holder !== undefined && { holder }), ...(orderId !== undefined && { orderId }) });
}

/** The charge became order `orderId`: the gift-card holds become its redemptions. */
export async function captureAttempt(tx: Tx, attempt: AttemptRow, orderId: string, now: number): Promise<void> {
  await tx.checkout.move(attempt.id, { type: 'captured' }, orderId);
  if (usesGiftCardLedger(attempt)) await settleHolds(tx, holderOf(attempt), orderId, now);
}

/** Nothing was charged (or it was refused): the attempt ends with `outcome`, its gift-card holds are dropped. */
export async function failAttempt(tx: Tx, attemptId: string, outcome: FailureOutcome): Promise<void> {
  await tx.checkout.move(attemptId, { type: 'failed', outcome });
  await releaseHolds(tx, attemptId);
}

/** The provider took the money but no order can be made of it: the attempt goes to `refunding`, its holds are dropped. */
export async function orphanAttempt(tx: Tx, attemptId: string): Promise<void> {
  await tx.checkout.move(attemptId, { type: 'orphaned' });
  await releaseHolds(tx, attemptId);
}

/**
 * An order that issued gift cards is cancelled: its cards are voided, or 409 GIFT_CARD_ALREADY_USED when one was
 * spent (nothing changes: the caller's transaction rolls back).
 */
export async function voidIssuedGiftCards(tx: Tx, orderId: string, now: number): Promise<void> {
  await voidIssued(tx, orderId, now);
}

/**
 * Its order was cancelled: the gift-card parts go back onto their cards at once, and the attempt goes to
 * `refunding` (confirmed at once when no provider is asked).
 */
export async function cancelAttempt(tx: Tx, attempt: AttemptRow, now: number): Promise<{ readonly viaProvider: boolean }> {
  if (attempt.orderId !== null) await refundParts(tx, attempt.orderId, now);
  await tx.checkout.move(attempt.id, { type: 'cancelled' });
  const viaProvider = refundNeedsProvider(attempt.method);
  if (!viaProvider) await confirmRefund(tx, attempt.id, now);
  return { viaProvider };
}

/**
 * The refund is confirmed at `now`: the attempt is refunded — and so its order's payment reads, derived from the
 * attempt (paymentView); the order's row is not written. In the caller's transaction.
 */
export async function confirmRefund(tx: Tx, attemptId: string, now: number): Promise<void> {
  await tx.locks.attempt(attemptId);
  const attempt = await tx.checkout.attempt(attemptId);
  if (attempt?.state !== 'refunding') return;
  await tx.checkout.move(attemptId, { type: 'refund_confirmed', at: now });
}

// --- the order's payment, derived from its attempt ----------------------------------------------------

/**
 * An order's payment (contract §4 PaymentView), derived on read from its attempt (issue #23): what was paid, how
 * (from the attempt's method, amount and request) and where it stands — `captured`, `refunding` while a provider
 * is asked, `refunded` with the time the refund was confirmed. The order keeps no copy of it.
 */
export function paymentView(attempt: AttemptRow, giftCardEntries: readonly GiftCardEntryRow[] = []): PaymentView {
  const settled = giftCardEntries
    .filter((entry) => entry.kind === 'redeem' && entry.state === 'settled')
    .map((entry) => ({
      code: entry.code,
      amount: { amount: -entry.amount, currency: attempt.currency },
      ...(entry.balanceAfter !== null && { balanceAfter: { amount: entry.balanceAfter, currency: attempt.currency } }),
    }));
  // at a terminal the ledger is the hub's: the parts are what the hub held for the attempt (checkout/hub-hold.ts)
  const parts = settled.length > 0 ? settled : [...((JSON.parse(attempt.request) as StoredPayment).hub?.parts ?? [])];
  const paid = { ...capturedPayment(attempt), ...(parts.length > 0 && { giftCards: parts }) };
  if (attempt.state === 'refunding') return { ...paid, status: 'refunding' };
  if (attempt.state !== 'refunded') return paid;
  return { ...paid, status: 'refunded', ...(attempt.refundedAt !== null && { refundedAt: new Date(attempt.refundedAt).toISOString() }) };
}

/** The payment an order of this attempt shows once captured. */
function capturedPayment(attempt: AttemptRow): PaymentView {
  const request = JSON.parse(attempt.request) as StoredPayment;
  const amount = { amount: attempt.amount, currency: attempt.currency };
  if (attempt.method === 'card') {
    return { method: 'card', status: 'captured', amount, reference: attempt.id, authenticated: request.authenticationResult !== undefined };
  }
  if (attempt.method === 'external') return { method: 'external', status: 'captured', amount, reference: request.reference ?? '' };
  if (attempt.method === 'none') return { method: 'none', status: 'captured', amount };
  if (attempt.method === 'giftCard') return { method: 'giftCard', status: 'captured', amount };
  const tendered = request.tendered ?? amount;
  return { method: 'cash', status: 'captured', amount, tendered, change: { amount: tendered.amount - amount.amount, currency: amount.currency } };
}
