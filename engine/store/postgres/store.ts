import { setTimeout } from 'node:timers/promises';
import type pg from 'pg';
import { EngineError } from '../../domain/errors';
import type { CatalogDocument } from '../../contract/catalog';
import type { CatalogImport, Locks, Repos, Store, TransactionOptions, Tx } from '../port';
import { createPgAllocationRepo } from './allocation-repo';
import { createPgBasketRepo } from './basket-repo';
import { createPgCartRepo } from './cart-repo';
import { createPgCatalogMemo } from './catalog-memo';
import { createPgCatalogNames } from './catalog-names';
import { createPgCatalogReader } from './catalog-reader';
import { createPgCatalogRepo } from './catalog-repo';
import { createPgCatalogWriter } from './catalog-writer';
import { createPgChannelRepo } from './channel-repo';
import { createPgCheckoutRepo } from './checkout-repo';
import { createPgCheckinRepo } from './checkin-repo';
import { openPostgres, type PostgresOptions } from './connect';
import { createPgGiftCardRepo } from './gift-card-repo';
import { createPgHoldingRepo } from './holding-repo';
import { createPgImportRepo } from './import-repo';
import { createPgCheckinConflictRepo } from './checkin-conflict-repo';
import { createPgJournalRepo } from './journal-repo';
import { createPgKeyRepo } from './key-repo';
import { createPgOrderLanguageRepo } from './order-language-repo';
import { createPgOrderRepo } from './order-repo';
import { createPgOrderSummaryRepo } from './order-summary-repo';
import { createPgOutboxRepo } from './outbox-repo';
import { createPgPrintJobRepo } from './print-job-repo';
import { createPgPspRepo } from './psp-repo';
import type { Queryable } from './queryable';
import { createPgShiftRepo } from './shift-repo';
import { createPgStaffPinRepo } from './staff-pin-repo';
import { createPgStockRepo } from './stock-repo';
import { createPgTicketKeyRepo } from './ticket-key-repo';
import { createPgRevocationRepo } from './revocation-repo';
import { createPgJournalSyncRepo } from './journal-sync-repo';
import { createPgTerminalJournalRepo } from './terminal-journal-repo';

/** How often a transaction that lost a deadlock or a serialization race is run again before it fails. */
const ATTEMPTS = 5;
/** the longest pause before the second try, growing with each try (a random part of it is taken) */
const RETRY_PAUSE_MS = 20;

/**
 * The PostgreSQL adapter of the storage port (a hub's database; contract §16): a `pg` pool, every transaction
 * on one pooled connection at READ COMMITTED. Any number of engine processes may share the database: a use
 * case locks the rows it decides on (`Locks`, SELECT … FOR UPDATE in a fixed order, or a transaction-scoped
 * advisory lock for a name), and each repository's read-check-write is one conditional statement. A
 * transaction that PostgreSQL aborts as a deadlock victim or a serialization failure is run again, from the
 * start, up to five times. When the server cannot be reached or is restarting, the request fails with 503
 * DATABASE_UNAVAILABLE and nothing was written; the pool reconnects by itself.
 */
export async function createPostgresStore(url: string, options: PostgresOptions & { masterKey: Buffer }): Promise<Store & { readonly pool: pg.Pool }> {
  const pool = await openPostgres(url, options);
  // catalog facts kept per catalog version in this process (catalog-memo.ts); every repository shares them
  const memo = createPgCatalogMemo();
  const reposOn = (q: Queryable): Repos => ({
    allocations: createPgAllocationRepo(q),
    baskets: createPgBasketRepo(q),
    carts: createPgCartRepo(q),
    catalog: createPgCatalogRepo(q, memo),
    catalogNames: createPgCatalogNames(q),
    catalogReader: createPgCatalogReader(q),
    channels: createPgChannelRepo(q, options.masterKey),
    checkout: createPgCheckoutRepo(q),
    giftCards: createPgGiftCardRepo(q),
    holdings: createPgHoldingRepo(q),
    imports: createPgImportRepo(q),
    journal: createPgJournalRepo(q),
    keys: createPgKeyRepo(q),
    orderLanguages: createPgOrderLanguageRepo(q),
    orders: createPgOrderRepo(q),
    orderSummaries: createPgOrderSummaryRepo(q),
    outbox: createPgOutboxRepo(q),
    printJobs: createPgPrintJobRepo(q),
    psp: createPgPspRepo(q),
    shifts: createPgShiftRepo(q),
    staffPins: createPgStaffPinRepo(q),
    stock: createPgStockRepo(q),
    ticketKeys: createPgTicketKeyRepo(q),
    revocations: createPgRevocationRepo(q),
    terminalJournals: createPgTerminalJournalRepo(q),
    journalSync: createPgJournalSyncRepo(q),
    checkins: createPgCheckinRepo(q),
    checkinConflicts: createPgCheckinConflictRepo(q),
  });
  const autocommit: Queryable = { query: (text, values) => unavailableOnFailure(() => textRefused(() => pool.query(text, values))) };
  const repos = reposOn(autocommit);

  const transaction = <T>(work: (tx: Tx) => Promise<T>, txOptions: TransactionOptions = {}): Promise<T> => run((tx) => work(tx), txOptions);

  async function run<T>(work: (tx: Tx, client: Queryable) => Promise<T>, txOptions: TransactionOptions = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      // after a deadlock or a serialization failure: a short random pause, so the two do not meet again at once
      if (attempt > 1) await setTimeout(Math.random() * RETRY_PAUSE_MS * (attempt - 1));
      const client = await unavailableOnFailure(() => pool.connect());
      let broken = false;
      try {
        await client.query(txOptions.readOnly === true ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN');
        const onClient: Queryable = { query: (text, values) => textRefused(() => client.query(text, values)) };
        const result = await work({ ...reposOn(onClient), locks: locksOn(onClient) }, onClient);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        if (retryable(error)) {
          if (attempt < ATTEMPTS) continue;
          // still losing after every try: the database is too busy now — a retry later succeeds, so 503, not 500
          throw new EngineError('DATABASE_UNAVAILABLE', { details: { reason: 'contention' } });
        }
        if (connectionLost(error)) throw new EngineError('DATABASE_UNAVAILABLE');
        throw error;
      } finally {
        // a connection that could not roll back is dropped, not handed to the next request
        client.release(broken);
      }
    }
  }

  async function* importCatalog(doc: CatalogDocument): CatalogImport {
    // one transaction: PostgreSQL locks rows, not the database, so sales go on while it writes (catalog-writer.ts)
    yield;
    await run(async (tx, client) => {
      await tx.locks.named('catalog');
      await createPgCatalogWriter(client, memo).write(doc);
    });
  }

  return {
    dialect: 'postgres',
    pool,
    repos,
    transaction,
    importCatalog,
    // a commit is durable when COMMIT answers (synchronous_commit on, the server's default)
    whenDurable: () => Promise.resolve(),
    ping: async () => {
      await autocommit.query('SELECT 1');
    },
    close: () => pool.end(),
  };
}

/** The row and advisory locks of one transaction (store/port.ts Locks), taken on its connection. */
function locksOn(client: Queryable): Locks {
  const rows = async (sql: string, values: unknown[]) => void (await client.query(sql, values));
  return {
    idempotencyKey: (apiKeyId, key) => advisory(client, `idempotency\n${apiKeyId}\n${key}`),
    cart: (cartId) => rows('SELECT 1 FROM carts WHERE id = $1 FOR UPDATE', [cartId]),
    order: (orderId) => rows('SELECT 1 FROM orders WHERE id = $1 FOR UPDATE', [orderId]),
    attempt: (attemptId) => rows('SELECT 1 FROM payment_attempts WHERE id = $1 FOR UPDATE', [attemptId]),
    giftCards: (codes) => rows('SELECT 1 FROM gift_cards WHERE code = ANY($1::text[]) ORDER BY code COLLATE "C" FOR UPDATE', [[...codes]]),
    inventory: (occurrenceId, itemIds) =>
      rows('SELECT 1 FROM inventory_items WHERE occurrence_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE', [occurrenceId, [...itemIds]]),
    journalHead: () => rows('SELECT 1 FROM journal_head WHERE id = 1 FOR UPDATE', []),
    ticket: (code) => advisory(client, `ticket\n${code}`),
    named: (name) => advisory(client, name),
    tryNamed: async (name) => {
      const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS held', [`kassa\n${name}`]);
      return rows[0]?.held === true;
    },
  };
}

/** A transaction-scoped advisory lock on a name: held until COMMIT or ROLLBACK. */
async function advisory(client: Queryable, name: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`kassa\n${name}`]);
}

/** deadlock_detected, serialization_failure: PostgreSQL rolled the transaction back; running it again is safe */
function retryable(error: unknown): boolean {
  const code = sqlState(error);
  return code === '40P01' || code === '40001';
}

/** the server is gone, restarting or refusing connections: the client may try again shortly */
function connectionLost(error: unknown): boolean {
  const code = sqlState(error);
  if (code !== undefined && (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03')) return true;
  const message = error instanceof Error ? error.message : '';
  const errno = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  return ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(errno)
    || /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(message);
}

function sqlState(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code) ? error.code : undefined;
}

/**
 * A client's text PostgreSQL cannot hold (U+0000; SQLite stores it): 400 MALFORMED_REQUEST, never a 5xx.
 * (Lookups by an id drop such ids first, as they name nothing: catalog-repo.ts.)
 */
async function textRefused<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (sqlState(error) === '22021' || sqlState(error) === '22P05') throw new EngineError('MALFORMED_REQUEST');
    throw error;
  }
}

async function unavailableOnFailure<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (connectionLost(error)) throw new EngineError('DATABASE_UNAVAILABLE');
    throw error;
  }
}
