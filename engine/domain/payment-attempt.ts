/**
 * The one lifecycle of a payment attempt, used by checkout, cancel, crash recovery and the sweeper:
 *
 *   pending ──approved──▶ captured ──cancel──▶ refunding ──refund confirmed──▶ refunded
 *      │                                          ▲
 *      ├──approved, but the cart is gone──────────┘
 *      └──declined / risk_declined / action_required / unavailable / not_charged──▶ failed
 *
 * An attempt is written `pending` before the provider is called. It leaves `pending` only on what the
 * provider said: its answer to the charge, or — after the deadline, a lost answer or a crash — its answer
 * about the reference. Money handed over at the desk (cash) or elsewhere (external) and a total of 0 (none)
 * need no provider: their refund is confirmed at once.
 */

export const ATTEMPT_STATES = ['pending', 'captured', 'failed', 'refunding', 'refunded'] as const;
export type AttemptState = (typeof ATTEMPT_STATES)[number];

/** giftCard: gift cards paid the whole total (issue #24); no provider, no cash */
export type PaymentMethod = 'card' | 'cash' | 'external' | 'none' | 'giftCard';

/** Why an attempt failed; kept on the attempt. */
export type FailureOutcome = 'declined' | 'risk_declined' | 'action_required' | 'unavailable' | 'not_charged';

export type AttemptEvent =
  | { readonly type: 'captured' }
  | { readonly type: 'failed'; readonly outcome: FailureOutcome }
  /** the provider took the money but no order can be made of it (the cart is gone): it goes back */
  | { readonly type: 'orphaned' }
  | { readonly type: 'cancelled' }
  /** the refund is confirmed, at `at` (epoch ms): the time an order's payment shows as `refundedAt` */
  | { readonly type: 'refund_confirmed'; readonly at: number };

const TRANSITIONS: Readonly<Record<AttemptState, Partial<Record<AttemptEvent['type'], AttemptState>>>> = {
  pending: { captured: 'captured', failed: 'failed', orphaned: 'refunding' },
  captured: { cancelled: 'refunding' },
  refunding: { refund_confirmed: 'refunded' },
  failed: {},
  refunded: {},
};

export class IllegalTransition extends Error {
  constructor(readonly from: AttemptState, readonly event: AttemptEvent['type']) {
    super(`a payment attempt in state ${from} cannot take event ${event}`);
    this.name = 'IllegalTransition';
  }
}

/** The state after `event`; throws on a move the lifecycle does not have (a bug, never a client mistake). */
export function nextAttemptState(from: AttemptState, event: AttemptEvent): AttemptState {
  const to = TRANSITIONS[from][event.type];
  if (to === undefined) throw new IllegalTransition(from, event.type);
  return to;
}

export function canTake(from: AttemptState, event: AttemptEvent['type']): boolean {
  return TRANSITIONS[from][event] !== undefined;
}

/** Whether giving the money back needs the provider (a card), or is done by whoever hands it over. */
export function refundNeedsProvider(method: PaymentMethod): boolean {
  return method === 'card';
}

/** Whether taking the money needs the provider. */
export function chargeNeedsProvider(method: PaymentMethod): boolean {
  return method === 'card';
}

/** Open attempts are those a sweep or a restart must still settle. */
export function isOpen(state: AttemptState): boolean {
  return state === 'pending' || state === 'refunding';
}

/** A risk decline ends the cart's checkout for every payment method (spec §7.3: retrying will not succeed). */
export function endsCheckout(outcome: string | null): boolean {
  return outcome === 'risk_declined';
}

/**
 * The most cash a till accepts for a total: ten times the total, or the total plus 500 major units of the
 * currency when that is more (a large note for a small sale). More is a typing mistake, not a payment.
 */
export function maxTendered(total: number, scale: number): number {
  return Math.max(total * 10, total + 500 * 10 ** scale);
}
