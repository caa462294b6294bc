import type { Db } from '../store/db';
import { createAllocationRepo } from '../store/allocation-repo';
import { createCatalogRepo } from '../store/catalog-repo';
import { createHoldingRepo } from '../store/holding-repo';
import { createCartRepo } from '../store/cart-repo';
import { createCatalogWriter } from '../store/catalog-writer';
import { createCheckoutRepo } from '../store/checkout-repo';
import { createOrderRepo } from '../store/order-repo';
import { createImportRepo } from '../store/import-repo';
import { createOutboxRepo } from '../store/outbox-repo';
import type { PaymentProvider } from '../payments/provider';
import { timeOrderedId, uuidV7 } from './ids';

/** Everything a use case needs, built once per engine: the database, its prepared repositories, a clock. */
export interface EngineContext {
  readonly db: Db;
  readonly catalog: ReturnType<typeof createCatalogRepo>;
  readonly carts: ReturnType<typeof createCartRepo>;
  readonly catalogWriter: ReturnType<typeof createCatalogWriter>;
  readonly checkout: ReturnType<typeof createCheckoutRepo>;
  readonly orders: ReturnType<typeof createOrderRepo>;
  readonly outbox: ReturnType<typeof createOutboxRepo>;
  /** at a hub: places granted to terminals (contract §10) */
  readonly allocations: ReturnType<typeof createAllocationRepo>;
  /** at a hub: how long a terminal's allocations last after its last call */
  readonly allocationLapseMs: number;
  /** at a terminal: the places it holds from its hub */
  readonly holdings: ReturnType<typeof createHoldingRepo>;
  /** at a terminal: whether it sells only what it holds (its upstream is a hub, or not known yet); set by the allocator */
  readonly terminal: { sellsFromHoldings: boolean; online: boolean };
  readonly imports: ReturnType<typeof createImportRepo>;
  /** an upstream is configured: every order and cancellation also goes into the sync outbox */
  readonly syncing: boolean;
  readonly payments: PaymentProvider;
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
  db: Db,
  options: {
    holdSeconds: number;
    now: () => number;
    payments: PaymentProvider;
    syncing?: boolean;
    allocationLapseSeconds?: number;
    /** group commit's wait for the disk; absent: every commit waits for the disk itself (synchronous = FULL) */
    whenDurable?: () => Promise<void>;
  },
): EngineContext {
  return {
    db,
    catalog: createCatalogRepo(db),
    carts: createCartRepo(db),
    catalogWriter: createCatalogWriter(db),
    checkout: createCheckoutRepo(db),
    orders: createOrderRepo(db),
    outbox: createOutboxRepo(db),
    allocations: createAllocationRepo(db),
    allocationLapseMs: (options.allocationLapseSeconds ?? DEFAULT_ALLOCATION_LAPSE_SECONDS) * 1000,
    holdings: createHoldingRepo(db),
    terminal: { sellsFromHoldings: false, online: false },
    imports: createImportRepo(db),
    syncing: options.syncing ?? false,
    payments: options.payments,
    inFlight: new Set(),
    now: options.now,
    holdMs: options.holdSeconds * 1000,
    // time-ordered, so the tables that grow with every sale append instead of scattering (see ids.ts)
    newId: (prefix) => (prefix === 'crt' ? uuidV7() : `${prefix}_${timeOrderedId()}`),
    whenDurable: options.whenDurable ?? (() => Promise.resolve()),
  };
}
