import { EngineError } from '../../domain/errors';
import { chargeNeedsProvider, refundNeedsProvider, type FailureOutcome } from '../../domain/payment-attempt';
import type { PaymentView } from '../../contract/order';
import type { EngineContext } from '../../shared/context';
import type { AttemptRow, NewAttempt } from '../../store/checkout-repo';
import type { Tx } from '../../store/port';
import type { StoredPayment } from '../checkout-begin';
import type { ChargeOutcome } from './provider';
import type { GiftCardEntryRow } from '../../store/gift-card-repo';
import type { PlannedPart } from '../../domain/gift-cards';
import { holdParts, refundParts, releaseHolds, settleHolds, voidIssued } from './gift-card-ledger';

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
export async function chargeAttempt(ctx: EngineContext, attempt: AttemptRow): Promise<SettleOutcome> {
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
export async function chargeOutcome(ctx: EngineContext, attempt: AttemptRow): Promise<SettleOutcome> {
  return chargeNeedsProvider(attempt.method) ? askProvider(ctx, attempt.id) : { status: 'approved' };
}

/** What the provider says of a reference whose charge went unanswered; throws 502 when it cannot say. */
async function askProvider(ctx: EngineContext, reference: string, cause?: unknown): Promise<SettleOutcome> {
  let status: Awaited<ReturnType<EngineContext['payments']['status']>>;
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
export async function refundAttempt(ctx: EngineContext, attemptId: string): Promise<boolean> {
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
  await holdParts(tx, reference, parts, currency, now);
}

/** A terminal's checkout failed: its holds at the hub are dropped. Returns how many there were. */
export async function releaseForTerminal(tx: Tx, reference: string): Promise<number> {
  return releaseHolds(tx, reference);
}

/** The holder of an attempt's gift-card holds: the attempt, or (an imported terminal order) the terminal's hold reference. */
function holderOf(attempt: AttemptRow): string {
  return (JSON.parse(attempt.request) as StoredPayment).giftCardHold ?? attempt.id;
}

/** The charge became order `orderId`: the gift-card holds become its redemptions. */
export async function captureAttempt(tx: Tx, attempt: AttemptRow, orderId: string, now: number): Promise<void> {
  await tx.checkout.move(attempt.id, { type: 'captured' }, orderId);
  await settleHolds(tx, holderOf(attempt), orderId, now);
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
  const parts = giftCardEntries
    .filter((entry) => entry.kind === 'redeem' && entry.state === 'settled')
    .map((entry) => ({
      code: entry.code,
      amount: { amount: -entry.amount, currency: attempt.currency },
      ...(entry.balanceAfter !== null && { balanceAfter: { amount: entry.balanceAfter, currency: attempt.currency } }),
    }));
  // at a terminal the cards' ledger is at its hub: the parts the attempt was made with
  const kept = (JSON.parse(attempt.request) as StoredPayment).giftCards ?? [];
  const shown = parts.length > 0 ? parts : kept.map((part) => ({ code: part.code, amount: { amount: part.amount, currency: attempt.currency } }));
  const paid = { ...capturedPayment(attempt), ...(shown.length > 0 && { giftCards: shown }) };
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
