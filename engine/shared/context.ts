import type { Store } from '../store/port';
import type { PaymentProvider } from '../checkout/payments/provider';

/** A checkout's lease on its payment attempt when none is given: the provider's default deadline (30 s). */
const DEFAULT_PAYMENT_LEASE_MS = 30_000;
import { timeOrderedId, uuidV7 } from './ids';
import { createGuessThrottle, type GuessThrottle } from '../domain/guess-throttle';

/** Everything a use case needs, built once per engine: the store (storage port), the provider, a clock. */
export interface EngineContext {
  readonly store: Store;
  /** at a hub: how long a terminal's allocations last after its last call */
  readonly allocationLapseMs: number;
  /** at a terminal: whether it sells only what it holds (its upstream is a hub, or not known yet); set by the allocator */
  readonly terminal: { sellsFromHoldings: boolean; online: boolean };
  /** an upstream is configured: every order and cancellation also goes into the sync outbox */
  readonly syncing: boolean;
  readonly payments: PaymentProvider;
  /**
   * how long a payment attempt's lease lasts (store checkout.claimAttempt): a checkout or a sweep working on the
   * attempt holds it that long; the provider deadline, so what a killed process left is taken over after it
   */
  readonly paymentLeaseMs: number;
  /** unknown gift-card codes per API key, in this process (issue #24): guessing is throttled */
  readonly giftCardGuesses: GuessThrottle;
  /** idempotency keys whose request is running in this process right now */
  readonly inFlight: Set<string>;
  /** epoch milliseconds; tests and the sync worker may move it */
  readonly now: () => number;
  readonly holdMs: number;
  readonly newId: (prefix: 'crt' | 'itm' | 'ord' | 'pay' | 'tkt') => string;
  /** resolves once every commit made so far is on the disk (store/durability.ts); before anything is promised outside */
  readonly whenDurable: () => Promise<void>;
}

/** How long a terminal's allocations outlive its last call to the hub: a long evening without internet. */
export const DEFAULT_ALLOCATION_LAPSE_SECONDS = 6 * 3600;

export function createContext(
  store: Store,
  options: {
    holdSeconds: number;
    now: () => number;
    payments: PaymentProvider;
    syncing?: boolean;
    allocationLapseSeconds?: number;
    /** default: the provider deadline's default (30 s) */
    paymentLeaseMs?: number;
  },
): EngineContext {
  return {
    store,
    allocationLapseMs: (options.allocationLapseSeconds ?? DEFAULT_ALLOCATION_LAPSE_SECONDS) * 1000,
    terminal: { sellsFromHoldings: false, online: false },
    syncing: options.syncing ?? false,
    payments: options.payments,
    paymentLeaseMs: options.paymentLeaseMs ?? DEFAULT_PAYMENT_LEASE_MS,
    inFlight: new Set(),
    giftCardGuesses: createGuessThrottle(),
    now: options.now,
    holdMs: options.holdSeconds * 1000,
    // time-ordered, so the tables that grow with every sale append instead of scattering (see ids.ts)
    newId: (prefix) => (prefix === 'crt' ? uuidV7() : `${prefix}_${timeOrderedId()}`),
    whenDurable: () => store.whenDurable(),
  };
}
