import { createAllocationRepo } from './allocation-repo';
import { createBasketRepo } from './basket-repo';
import { createCartRepo } from './cart-repo';
import { createCatalogNames } from './catalog-names';
import { createCatalogReader } from './catalog-reader';
import { createCatalogRepo } from './catalog-repo';
import { createCatalogWriter } from './catalog-writer';
import { createChannelRepo } from './channel-repo';
import { createCheckoutRepo } from './checkout-repo';
import { createCheckinRepo } from './checkin-repo';
import { createGiftCardRepo } from './gift-card-repo';
import { relaxSynchronous, type Db } from './db';
import { groupCommit, type Durability } from './durability';
import { createHoldingRepo } from './holding-repo';
import { createImportRepo } from './import-repo';
import { createCheckinConflictRepo } from './checkin-conflict-repo';
import { createJournalRepo } from './journal-repo';
import { createKeyRepo } from './key-repo';
import { createOrderLanguageRepo } from './order-language-repo';
import { createOrderRepo } from './order-repo';
import { createOrderSummaryRepo } from './order-summary-repo';
import { createOutboxRepo } from './outbox-repo';
import type { Async, CatalogImport, Locks, Repos, Store, TransactionOptions, Tx } from './port';
import { createPrintJobRepo } from './print-job-repo';
import { createPspRepo } from './psp-repo';
import { createShiftRepo } from './shift-repo';
import { createStaffPinRepo } from './staff-pin-repo';
import { createStockRepo } from './stock-repo';
import { createTicketKeyRepo } from './ticket-key-repo';
import { createRevocationRepo } from './revocation-repo';
import { createJournalSyncRepo } from './journal-sync-repo';
import { createTerminalJournalRepo } from './terminal-journal-repo';
import type { CatalogDocument } from '../contract/catalog';
import { randomBytes } from 'node:crypto';

/**
 * The SQLite adapter of the storage port (a till's database, the default): better-sqlite3 on one connection,
 * whose statements run synchronously. Each method answers a settled Promise.
 *
 * One connection means one transaction at a time: `transaction` queues behind the one under way (BEGIN
 * IMMEDIATE inside), and a statement outside a transaction waits for it too — on the same connection it would
 * otherwise see, or become part of, writes not yet committed. A transaction's work awaits only the store, whose
 * answers are already settled, so it runs to its end within one turn of the event loop.
 */
export function createSqliteStore(db: Db, options: { groupCommit?: boolean; masterKey?: Buffer } = {}): Store & { readonly db: Db; readonly durability: Durability; readonly commits: number } {
  // before anything else writes: from here on commits wait for the disk in groups (store/durability.ts)
  const durability: Durability = options.groupCommit === false
    ? { whenDurable: () => Promise.resolve(), syncs: 0, close: () => Promise.resolve() }
    : groupCommit(db);
  const sync = {
    allocations: createAllocationRepo(db),
    baskets: createBasketRepo(db),
    carts: createCartRepo(db),
    catalog: createCatalogRepo(db),
    catalogNames: createCatalogNames(db),
    catalogReader: createCatalogReader(db),
    // the v1 channels' secrets are sealed with the data folder's master key; without one (tests) a key of this run
    channels: createChannelRepo(db, options.masterKey ?? randomBytes(32)),
    checkout: createCheckoutRepo(db),
    giftCards: createGiftCardRepo(db),
    holdings: createHoldingRepo(db),
    imports: createImportRepo(db),
    journal: createJournalRepo(db),
    keys: createKeyRepo(db),
    orderLanguages: createOrderLanguageRepo(db),
    orders: createOrderRepo(db),
    orderSummaries: createOrderSummaryRepo(db),
    outbox: createOutboxRepo(db),
    printJobs: createPrintJobRepo(db),
    psp: createPspRepo(db),
    shifts: createShiftRepo(db),
    staffPins: createStaffPinRepo(db),
    stock: createStockRepo(db),
    ticketKeys: createTicketKeyRepo(db),
    revocations: createRevocationRepo(db),
    terminalJournals: createTerminalJournalRepo(db),
    journalSync: createJournalSyncRepo(db),
    checkins: createCheckinRepo(db),
    checkinConflicts: createCheckinConflictRepo(db),
  };
  const writer = createCatalogWriter(db);

  // better-sqlite3's own transaction helper takes synchronous work only: the statements are issued by hand
  const begin = db.prepare('BEGIN IMMEDIATE');
  const beginRead = db.prepare('BEGIN');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  let busy: Promise<void> | undefined;
  let commits = 0;
  const idle = async (): Promise<void> => {
    while (busy) await busy;
  };
  /** runs `statement` once no transaction is under way, in the same turn as the check (none can begin in between) */
  const whenIdle = async <T>(statement: () => T): Promise<T> => {
    while (busy) await busy;
    return statement();
  };
  const noLocks: Locks = {
    idempotencyKey: () => Promise.resolve(),
    cart: () => Promise.resolve(),
    order: () => Promise.resolve(),
    attempt: () => Promise.resolve(),
    giftCards: () => Promise.resolve(),
    inventory: () => Promise.resolve(),
    journalHead: () => Promise.resolve(),
    ticket: () => Promise.resolve(),
    named: () => Promise.resolve(),
    tryNamed: () => Promise.resolve(true),
  };
  const inTx: Tx = { ...wrapAll(sync, () => false), locks: noLocks };
  const repos: Repos = wrapAll(sync, () => busy !== undefined, whenIdle);

  async function transaction<T>(work: (tx: Tx) => Promise<T>, txOptions: TransactionOptions = {}): Promise<T> {
    // the check and the claim in one turn: after `await idle()` another waiter woken by the same release could
    // claim the connection first, and two BEGINs would meet
    while (busy) await busy;
    let release = (): void => undefined;
    busy = new Promise<void>((resolve) => {
      release = resolve;
    });
    const restore = txOptions.durable === false ? relaxSynchronous(db) : undefined;
    try {
      (txOptions.readOnly === true ? beginRead : begin).run();
      try {
        const result = await work(inTx);
        commit.run();
        commits += 1;
        return result;
      } catch (error) {
        if (db.inTransaction) rollback.run();
        throw error;
      }
    } finally {
      restore?.();
      busy = undefined;
      release();
    }
  }

  async function* importCatalog(doc: CatalogDocument): CatalogImport {
    const steps = writer.plan(doc, true);
    // each step may commit a batch of staged rows: never while a transaction is open on the connection
    let step = await whenIdle(() => steps.next());
    while (!step.done) {
      yield;
      step = await whenIdle(() => steps.next());
    }
    const plan = step.value;
    await transaction(async () => writer.write(doc, plan));
  }

  return {
    dialect: 'sqlite',
    db,
    /** write transactions committed through `transaction` (tests count them) */
    get commits() {
      return commits;
    },
    durability,
    repos,
    transaction,
    importCatalog,
    whenDurable: () => durability.whenDurable(),
    ping: async () => {
      await whenIdle(() => db.prepare('SELECT 1').get());
    },
    close: async () => {
      await idle();
      await durability.close();
      db.close();
    },
  };
}

type WhenIdle = <T>(statement: () => T) => Promise<T>;

function wrapAll<R extends Record<string, object>>(sync: R, mustWait: () => boolean, whenIdle?: WhenIdle): { readonly [K in keyof R]: Async<R[K]> } {
  const out: Partial<Record<keyof R, unknown>> = {};
  for (const name of Object.keys(sync) as (keyof R)[]) out[name] = wrap(sync[name], mustWait, whenIdle);
  return out as { readonly [K in keyof R]: Async<R[K]> };
}

function wrap<R extends object>(repo: R, mustWait: () => boolean, whenIdle?: WhenIdle): Async<R> {
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(repo)) {
    if (typeof member !== 'function') continue;
    const method = member as (...args: unknown[]) => unknown;
    out[name] = (...args: unknown[]) => {
      // not idle().then(method): between idle's last check and the callback a waiting transaction can begin
      if (whenIdle && mustWait()) return whenIdle(() => method(...args));
      try {
        return Promise.resolve(method(...args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return out as Async<R>;
}
