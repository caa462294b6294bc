import type { AllocationRepo } from './allocation-repo';
import type { BasketRepo } from './basket-repo';
import type { CartRepo } from './cart-repo';
import type { CatalogRepo } from './catalog-repo';
import type { createCatalogNames } from './catalog-names';
import type { createCatalogReader } from './catalog-reader';
import type { ChannelRepo } from './channel-repo';
import type { CheckinConflictRepo } from './checkin-conflict-repo';
import type { CheckoutRepo } from './checkout-repo';
import type { CheckinRepo } from './checkin-repo';
import type { GiftCardRepo } from './gift-card-repo';
import type { HoldingRepo } from './holding-repo';
import type { JournalRepo } from './journal-repo';
import type { createImportRepo } from './import-repo';
import type { KeyRepo } from './key-repo';
import type { OrderLanguageRepo } from './order-language-repo';
import type { OrderRepo } from './order-repo';
import type { OrderSummaryRepo } from './order-summary-repo';
import type { OutboxRepo } from './outbox-repo';
import type { PrintJobRepo } from './print-job-repo';
import type { PspRepo } from './psp-repo';
import type { ShiftRepo } from './shift-repo';
import type { createStaffPinRepo } from './staff-pin-repo';
import type { StockRepo } from './stock-repo';
import type { JournalSyncRepo } from './journal-sync-repo';
import type { TerminalJournalRepo } from './terminal-journal-repo';
import type { TicketKeyRepo } from './ticket-key-repo';
import type { RevocationRepo } from './revocation-repo';
import type { Async } from './port-types';
import type { CatalogDocument } from '../contract/catalog';

export type { Async } from './port-types';

/**
 * The storage port (issue #23): every repository the engine's use cases reach, each method answering a
 * Promise. One adapter per database: SQLite (store/sqlite-store.ts, a till's, the default) and PostgreSQL
 * (store/postgres/, a hub's). SQL is written in the adapters only.
 */
export interface Repos {
  readonly allocations: Async<AllocationRepo>;
  readonly baskets: Async<BasketRepo>;
  readonly carts: Async<CartRepo>;
  readonly catalog: Async<CatalogRepo>;
  readonly catalogNames: Async<ReturnType<typeof createCatalogNames>>;
  readonly catalogReader: Async<ReturnType<typeof createCatalogReader>>;
  /** the legacy v1 channels (contract §11) */
  readonly channels: Async<ChannelRepo>;
  readonly checkout: Async<CheckoutRepo>;
  /** gift cards and their ledger (issue #24) */
  readonly giftCards: Async<GiftCardRepo>;
  readonly holdings: Async<HoldingRepo>;
  readonly imports: Async<ReturnType<typeof createImportRepo>>;
  /** the hash-chained journal and its head (issue #25, contract §14); appended to by engine/journal/append.ts only */
  readonly journal: Async<JournalRepo>;
  readonly keys: Async<KeyRepo>;
  readonly orderLanguages: Async<OrderLanguageRepo>;
  readonly orders: Async<OrderRepo>;
  readonly orderSummaries: Async<OrderSummaryRepo>;
  readonly outbox: Async<OutboxRepo>;
  readonly printJobs: Async<PrintJobRepo>;
  readonly psp: Async<PspRepo>;
  /** shifts and the cash drawer (issue #25, contract §14) */
  readonly shifts: Async<ShiftRepo>;
  readonly staffPins: Async<ReturnType<typeof createStaffPinRepo>>;
  readonly stock: Async<StockRepo>;
  /** the ticket keys, own and learned (issue #26); read by engine/tickets/key-ring.ts only */
  readonly ticketKeys: Async<TicketKeyRepo>;
  /** revoked tickets: of orders cancelled here, and pulled from a hub (issue #26) */
  readonly revocations: Async<RevocationRepo>;
  /** a hub's copy of its terminals' journals and their shifts (issue #25) */
  readonly terminalJournals: Async<TerminalJournalRepo>;
  /** a terminal's journal on its way to the hub (issue #25) */
  readonly journalSync: Async<JournalSyncRepo>;
  /** check-ins at the door and who is inside (issue #26, contract §15) */
  readonly checkins: Async<CheckinRepo>;
  /** a hub's DUPLICATE_ENTRY conflicts of terminals' offline check-ins (issue #26) */
  readonly checkinConflicts: Async<CheckinConflictRepo>;
}

export interface TransactionOptions {
  /**
   * false: the commit need not wait for the disk by itself (SQLite: synchronous = NORMAL for this one), for
   * disposable or re-derivable writes; whatever next waits for the disk makes it durable too. Default true.
   */
  readonly durable?: boolean;
  /**
   * Reads only, as of one moment (SQLite: a deferred transaction; PostgreSQL: REPEATABLE READ, READ ONLY):
   * for an answer built from several statements that must agree with each other.
   */
  readonly readOnly?: boolean;
}

/** A catalog import's steps: it yields between slices of work so the engine keeps answering (import-catalog.ts). */
export type CatalogImport = AsyncGenerator<void, void, undefined>;

export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  /** repositories for one statement at a time, outside any transaction (autocommit) */
  readonly repos: Repos;
  /**
   * Runs `work` as one write transaction: all of it commits or none. SQLite: BEGIN IMMEDIATE, one at a time
   * in this process (the database's write lock). PostgreSQL: READ COMMITTED on one pooled connection; a use
   * case locks the rows it decides on (`locks`), and a deadlock or serialization failure runs `work` again.
   * Inside `work` only `tx` may be used — never `repos`, never another transaction — and nothing but the
   * store may be awaited (no provider, no network): locks are held until it returns.
   */
  transaction<T>(work: (tx: Repos & { readonly locks: Locks }) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Writes a checked catalog document (contract §2) as one catalog version, all or nothing, handing the event
   * loop back between steps. `steps` drives it: each `yield` is a point where other requests may run.
   */
  importCatalog(doc: CatalogDocument): CatalogImport;
  /** resolves once every commit made so far is on the disk (before anything is promised outside) */
  whenDurable(): Promise<void>;
  /** what health reports: the database answers */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Row locks a write transaction takes before it reads what it decides on (PostgreSQL: SELECT … FOR UPDATE;
 * SQLite: nothing, BEGIN IMMEDIATE already holds the whole database). Several locks are taken in the order
 * below (idempotency key, cart, order, attempt, gift cards, inventory, journal head), which is the order every use
 * case follows.
 */
export interface Locks {
  /** the idempotency key's row (one process at a time decides on a key) */
  idempotencyKey(apiKeyId: string, key: string): Promise<void>;
  cart(cartId: string): Promise<void>;
  order(orderId: string): Promise<void>;
  attempt(attemptId: string): Promise<void>;
  /**
   * gift cards whose balance a transaction checks and then changes (a hold, a settlement's balance_after, a
   * refund or void), in code order; after the attempt and before inventory (issue #24)
   */
  giftCards(codes: readonly string[]): Promise<void>;
  /**
   * inventory items whose stock a transaction reads and then changes (a new cart's holds, a terminal's
   * grants), in id order; taken after the cart and before anything else
   */
  inventory(occurrenceId: string, itemIds: readonly string[]): Promise<void>;
  /**
   * the journal's head (issue #25): taken last, by engine/journal/append.ts, just before it reads the head and
   * appends; held until the commit, so entries are numbered and chained one writer at a time across processes
   */
  journalHead(): Promise<void>;
  /**
   * a ticket (issue #26), by its 20-character code: a check-in takes it before it reads the ticket's presence, so
   * two processes admitting one ticket decide one after the other (PostgreSQL: an advisory lock of the code).
   * Check-ins take no other lock; were one to, this one comes after inventory and before the journal head
   */
  ticket(code: string): Promise<void>;
  /** an advisory lock for a name (e.g. one terminal's allocation requests), until the transaction ends */
  named(name: string): Promise<void>;
  /**
   * the same lock without waiting: true when this transaction has it now, false when another holds it (work
   * that one process at a time does, such as the sweeper's, is then left to that one). SQLite: always true
   */
  tryNamed(name: string): Promise<boolean>;
}

export type Tx = Repos & { readonly locks: Locks };
