import type { Store } from '../store/port';
import type { PaymentProvider } from '../checkout/payments/provider';
import type { TicketKeyRing } from '../tickets/key-ring';

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
  readonly newId: (prefix: 'crt' | 'itm' | 'ord' | 'pay' | 'tkt' | 'shf' | 'mov') => string;
  /**
   * `serve --require-shift` (the desktop box office's `requireShift`): a cash checkout or a cash refund with no
   * open shift answers 409 SHIFT_NOT_OPEN (contract §14)
   */
  readonly requireShift: boolean;
  /**
   * whether orders and cancellations are journalled (contract §14; engine/journal/append.ts). Always true but in
   * the bench, which turns it off through the programmatic API (createContext/startEngine) to measure its cost
   */
  readonly journal: boolean;
  /** resolves once every commit made so far is on the disk (store/durability.ts); before anything is promised outside */
  readonly whenDurable: () => Promise<void>;
  /**
   * the ticket key ring (issue #26, engine/tickets/key-ring.ts): signs every ticket sold, verifies signed codes.
   * Absent only where an engine is put together without it (some tests); its tickets then have no signed code
   */
  readonly ticketKeys: TicketKeyRing | undefined;
}

// --- what a use case may ask for -------------------------------------------------------------------------
// Each use case names the parts of the engine it needs as an intersection of these (its `…Deps` type), and the
// compiler holds it to them: a use case that reads the clock says `Clock`, one that charges says `Payments`. The
// composition root (engine/start.ts) builds one EngineContext, which has them all.

/** the storage port (store/port.ts): transactions and, outside them, reads and single writes */
export type Storage = Pick<EngineContext, 'store'>;
/** the time, in epoch milliseconds */
export type Clock = Pick<EngineContext, 'now'>;
/** new ids for carts, items, orders, attempts and tickets */
export type Ids = Pick<EngineContext, 'newId'>;
/** how long a cart holds its places */
export type HoldLength = Pick<EngineContext, 'holdMs'>;
/** whether orders and cancellations also go into the sync outbox */
export type Syncing = Pick<EngineContext, 'syncing'>;
/** whether cash needs an open shift (contract §14, --require-shift) */
export type ShiftRule = Pick<EngineContext, 'requireShift'>;
/** whether orders and cancellations are journalled (false only in the bench) */
export type Journalling = Pick<EngineContext, 'journal'>;
/** waiting for the disk before anything is promised outside */
export type Durability = Pick<EngineContext, 'whenDurable'>;
/** the payment provider (only checkout/payments/lifecycle.ts calls it) */
export type Payments = Pick<EngineContext, 'payments'>;
/** how long a payment attempt's lease lasts (without the provider itself) */
export type PaymentLease = Pick<EngineContext, 'paymentLeaseMs'>;
/** the idempotency keys whose request runs in this process */
export type InFlight = Pick<EngineContext, 'inFlight'>;
/** a terminal's selling mode (set by the allocator) */
export type TerminalRole = Pick<EngineContext, 'terminal'>;
/** the per-key count of unknown gift-card codes (contract §13: guessing is throttled) */
export type GiftCardGuesses = Pick<EngineContext, 'giftCardGuesses'>;
/** at a hub: how long a terminal's allocations last */
export type AllocationLapse = Pick<EngineContext, 'allocationLapseMs'>;
/** the ticket key ring: signing tickets, verifying signed codes (issue #26) */
export type TicketSigning = Pick<EngineContext, 'ticketKeys'>;

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
    /** cash needs an open shift (`--require-shift`); default false */
    requireShift?: boolean;
    /** bench only: false skips the journal (contract §14) to measure what it costs; default true */
    journal?: boolean;
    /** the ticket key ring (engine/tickets/key-ring.ts loadTicketKeyRing); absent: tickets are not signed */
    ticketKeys?: TicketKeyRing;
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
    requireShift: options.requireShift ?? false,
    journal: options.journal ?? true,
    ticketKeys: options.ticketKeys,
  };
}
