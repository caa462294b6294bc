import type { Money } from '../../domain/money';

/**
 * What the order code needs of a card payment provider. The built-in simulator implements it; a real
 * provider plugs in behind the same interface without touching the order code.
 *
 * `reference` is the engine's payment-attempt id, written to the database before `charge` is called. A
 * provider charges at most once per reference: calling `charge` again with it returns the first outcome.
 */
export interface CardCharge {
  readonly reference: string;
  /** the cart paid for: a 3-D Secure result is valid only for the cart whose attempt raised the challenge */
  readonly shopperReference: string;
  readonly amount: Money;
  readonly token: string;
  readonly authenticationResult?: string;
}

export type ChargeOutcome =
  | { readonly status: 'approved' }
  /** the issuer wants shopper authentication; `action` is the provider's action as a JSON string */
  | { readonly status: 'action_required'; readonly action: string }
  | { readonly status: 'declined' }
  | { readonly status: 'risk_declined' }
  /** the provider answered that it could not process the charge: nothing was charged */
  | { readonly status: 'unavailable' };

export interface PaymentProvider {
  /** Resolves with the outcome; rejects when the outcome is unknown (a lost answer), to be settled later. */
  charge(request: CardCharge): Promise<ChargeOutcome>;
  /**
   * What became of a reference, for settling attempts a deadline, a lost answer or a crash left open.
   * Answering `none` closes the reference: a charge for it that arrives afterwards is never taken, so the
   * engine may settle the attempt as not charged.
   */
  status(reference: string): Promise<'approved' | 'refunded' | 'none'>;
  /**
   * Gives back what was charged under `reference`. Safe to repeat: a second call for the same reference
   * refunds nothing more and answers `refunded` again. `none`: nothing was ever charged under it. Resolving
   * is the confirmation; rejecting means the outcome is unknown, and the engine asks again later.
   */
  refund(reference: string): Promise<'refunded' | 'none'>;
  /** tokens a UI may offer while this provider is in use (only a simulator has any) */
  readonly testTokens: readonly string[];
}

export class ProviderDeadlineExceeded extends Error {
  constructor(readonly call: 'charge' | 'status' | 'refund', readonly deadlineMs: number) {
    super(`the payment provider did not answer ${call} within ${deadlineMs} ms`);
    this.name = 'ProviderDeadlineExceeded';
  }
}

/** Default deadline of one provider call: after it the attempt is settled by asking about its reference. */
export const DEFAULT_PROVIDER_DEADLINE_MS = 30_000;

/**
 * The same provider with a deadline on every call: a call that has not answered in `deadlineMs` rejects
 * (its outcome unknown), so no request, sweep or start waits on a provider for longer than that.
 */
export function withDeadline(provider: PaymentProvider, deadlineMs: number): PaymentProvider {
  const bounded = <T>(call: 'charge' | 'status' | 'refund', work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new ProviderDeadlineExceeded(call, deadlineMs)), deadlineMs);
    });
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  };
  return {
    testTokens: provider.testTokens,
    charge: (request) => bounded('charge', provider.charge(request)),
    status: (reference) => bounded('status', provider.status(reference)),
    refund: (reference) => bounded('refund', provider.refund(reference)),
  };
}
