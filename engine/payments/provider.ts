import type { Money } from '../domain/money';

/**
 * What the order code needs of a card payment provider. The built-in simulator implements it; a real
 * provider plugs in behind the same interface without touching the order code.
 *
 * `reference` is the engine's payment-attempt id, written to the database before `charge` is called. A
 * provider charges at most once per reference: calling `charge` again with it returns the first outcome.
 */
export interface CardCharge {
  readonly reference: string;
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
  /** What became of a reference, for settling attempts a crash left open. */
  status(reference: string): Promise<'approved' | 'refunded' | 'none'>;
  refund(reference: string): Promise<void>;
  /** tokens a UI may offer while this provider is in use (only a simulator has any) */
  readonly testTokens: readonly string[];
}
