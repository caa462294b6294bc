import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import Value from 'typebox/value';
import { demoCatalog } from './catalog/demo';
import { LIMITS } from './domain/limits';
import { buildApp } from './http/app';
import { inFlight } from './http/in-flight';
import { API_KEY_HEADER } from './http/auth';
import { CatalogDocument } from './contract/catalog';
import type { UiConfig } from './http/routes/ui';
import type { Repos, Store } from './store/port';
import { channelsOfAnotherKey, loadMasterKey, MASTER_KEY_FILE, masterKeyFingerprint } from './store/channel-repo';
import { openStore } from './store/open';
import { importCatalog } from './catalog/catalog';
import { createContext } from './shared/context';
import { loadTicketKeyRing } from './tickets/key-ring';
import { createSimulator } from './checkout/payments/simulator';
import { DEFAULT_PROVIDER_DEADLINE_MS, withDeadline } from './checkout/payments/provider';
import { settleOpenAttempts } from './checkout/recover-payments';
import { startAllocator, type Allocator } from './sync/allocator';
import { startSyncWorker, type SyncWorker } from './sync/worker';
import { createHubGiftCards } from './sync/hub-gift-cards';
import { createHubCheckins } from './sync/hub-checkins';
import type { Backoff } from './printing/backoff';
import { parsePrinter, PrinterUrlError } from './printing/printers';
import { startPrintQueue, type PrintQueue } from './printing/queue';
import type { TcpTimeouts } from './printing/tcp';
import type { AllocationCap } from './domain/allocations';
import { ROLE_SCOPES } from './domain/scopes';
import { staffPinHash } from './staff/pin-source';

/** Options of `startEngine`, the one way the engine starts: `serve`, Electron and the tests alike. */
export interface EngineOptions {
  readonly dataDir: string;
  /**
   * the database (contract §16 `--database`): `sqlite:` or absent — kassa.sqlite in `dataDir` (a till's) — or a
   * `postgres://user@host:port/db` URL, which any number of engine processes may share (a hub's)
   */
  readonly database?: string;
  /** default 8787; 0 picks a free port */
  readonly port?: number;
  /** default 127.0.0.1 (loopback only) */
  readonly host?: string;
  readonly catalogFile?: string;
  /** fill a new, empty database with the demo catalog (default true) */
  readonly demo?: boolean;
  readonly holdSeconds?: number;
  /** requests per second per API key; 0 turns limiting off (default 50) */
  readonly rateLimit?: number;
  /** host names accepted in Host/Origin besides the loopback names */
  readonly allowedHosts?: readonly string[];
  readonly logger?: FastifyBaseLogger;
  /** epoch-ms clock; tests move it */
  readonly now?: () => number;
  /** how often the sweeper tidies timed-out holds (correctness never waits for it) */
  readonly sweepIntervalMs?: number;
  /** the upstream service to sync with (contract §1 --upstream, --upstream-key); absent: standalone */
  readonly upstream?: { readonly url: string; readonly key: string; readonly pullIntervalMs?: number; readonly retryBaseMs?: number; readonly pollMs?: number };
  /** at a terminal of a hub: places of each general item of each on-sale occurrence kept in hand (default 10) */
  readonly allocation?: number;
  /** at a terminal of a plain v3 upstream: sell while it cannot be reached (default false) */
  readonly offlineSales?: boolean;
  /** at a terminal of a hub: how often allocations are topped up and renewed (default 5000 ms) */
  readonly allocationCycleMs?: number;
  /** at a hub: how long a terminal's allocations outlive its last call (default 6 hours) */
  readonly allocationLapseSeconds?: number;
  /** at a hub: the most of one inventory item one terminal may hold (`--allocation-cap`; default 25 %, at least 10 places) */
  readonly allocationCap?: AllocationCap;
  /**
   * the staff PIN's scrypt hash (`npm run staff-pin -- PIN`) for the box office's sign-in; `serve` takes it from
   * KASSA_STAFF_PIN_HASH or --staff-pin-file, Electron from its settings. Absent: the PIN the engine made at its
   * first start (DATA/staff-pin.txt)
   */
  readonly staffPinHash?: string;
  /** the simulated payment provider's answer latency (for demos and crash tests) */
  readonly paymentAnswerDelayMs?: number;
  /**
   * how long one call to the payment provider may take (default 30 s); after it the attempt is settled by
   * asking the provider about its reference, and an attempt still open is settled by the next sweep
   */
  readonly paymentDeadlineMs?: number;
  /** how long the simulator's `tok_timeout` stays silent (default 10 minutes; tests of the late answer shorten it) */
  readonly paymentHangMs?: number;
  /** the built UI to serve (default dist/renderer when it exists); false serves none */
  readonly uiDir?: string | false;
  /**
   * offer the hub's extensions (GET /capabilities, POST /orders/import; default: yes, with batches of up to
   * 100 advertised); false behaves as a plain v3 service (for tests)
   */
  readonly capabilities?: false | { readonly importBatch?: number };
  /**
   * a hub grants allocations to its terminals (default true). false: its terminals sell as against a plain v3
   * service (hold upstream first; offline only with --offline-sales), for a venue that accepts that risk
   */
  readonly allocations?: boolean;
  /** where the SQL migrations are (default: beside the store's source); a bundled build names its copy */
  readonly migrationsDir?: string;
  /** the same for PostgreSQL's migrations (store/postgres/migrations) */
  readonly postgresMigrationsDir?: string;
  /**
   * Printers (contract §12, `--printer`): `tcp://HOST:PORT` (ESC/POS) or `system:NAME` (needs `systemPrint`),
   * `?paper=58` for a 58 mm roll. A print request goes to the printer it names, else to the first.
   */
  readonly printers?: readonly string[];
  /** prints an HTML page on an operating-system printer without a dialog (the desktop app); rejects saying why */
  readonly systemPrint?: (request: { readonly printer: string; readonly paper: '58mm' | '80mm' | 'a4'; readonly html: string }) => Promise<void>;
  /** the zone printed dates are in (default: this machine's, the venue's) */
  readonly printTimeZone?: string;
  /** the print queue's knobs; the defaults (2 s doubling to 30 s; connect 5 s, write 15 s; probe 30 s) are the shipped ones */
  readonly printTuning?: { readonly backoff?: Backoff; readonly tcp?: TcpTimeouts; readonly probeIntervalMs?: number };
  /**
   * `--require-shift` (contract §14; the desktop box office's `requireShift`, on there by default): a cash checkout or
   * a cash refund with no open shift answers 409 SHIFT_NOT_OPEN. Default false: cash sold with no shift open is
   * journalled with shiftId null, counted in no shift. The UI config tells the box office (`requireShift`)
   */
  readonly requireShift?: boolean;
  /**
   * bench only (no CLI flag, no environment variable): false skips the journal (contract §14) so that the bench
   * measures what journalling costs; default true. An engine that sells must journal.
   */
  readonly journal?: boolean;
}

export interface RunningEngine {
  readonly url: string;
  readonly port: number;
  /** the UI, when one is served: where it opens and its start-up config (Electron's preload hands it over) */
  readonly ui: { readonly url: string; readonly config: UiConfig } | undefined;
  /** set when this start made the staff PIN: the file it is in (say where, never the PIN itself) */
  readonly staffPinFile?: string;
  close(): Promise<void>;
}

export class CatalogFileError extends Error {}

/** how often the sweeper runs by default (`sweepIntervalMs`): timed-out holds, lapsed allocations, stale payment attempts */
export const DEFAULT_SWEEP_INTERVAL_MS = 30_000;

/** pino `redact` paths every engine logger uses: API keys and v1 checksums never reach a log (URLs are redacted by the HTTP layer). */
export const LOG_REDACTIONS = [`req.headers["${API_KEY_HEADER}"]`, 'req.headers.authorization', 'req.headers["x-checksum"]'] as const;

export async function startEngine(options: EngineOptions): Promise<RunningEngine> {
  const logger = options.logger ?? pino({ redact: [...LOG_REDACTIONS] });
  mkdirSync(options.dataDir, { recursive: true });
  const masterKey = loadMasterKey(options.dataDir);
  const store = await openStore(options.database, { dataDir: options.dataDir, migrationsDir: options.migrationsDir, postgresMigrationsDir: options.postgresMigrationsDir, masterKey });
  let printQueue: PrintQueue | undefined;
  try {
    await reportMasterKey(store, masterKey, options.dataDir, logger);
    const now = options.now ?? Date.now;
    let baseUrl = '';
    const simulator = createSimulator(store, { baseUrl: () => baseUrl, now, answerDelayMs: options.paymentAnswerDelayMs, hangMs: options.paymentHangMs });
    const deadlineMs = options.paymentDeadlineMs ?? DEFAULT_PROVIDER_DEADLINE_MS;
    const payments = withDeadline(simulator.provider, deadlineMs);
    // this engine's ticket key (issue #26): made at the first start, one for all processes sharing the database
    const ticketKeys = await loadTicketKeyRing(store, now);
    const ctx = createContext(store, { holdSeconds: options.holdSeconds ?? 900, now, payments, syncing: options.upstream !== undefined, paymentLeaseMs: deadlineMs,
      requireShift: options.requireShift ?? false, journal: options.journal ?? true, ticketKeys });
    let worker: SyncWorker | undefined;
    let allocator: Allocator | undefined;
    if (options.catalogFile !== undefined) await importCatalog(ctx, readCatalogFile(options.catalogFile));
    else if (options.demo !== false && (await store.repos.catalog.locations()).length === 0) await importCatalog(ctx, demoCatalog());
    // Before taking requests: what a crash left between the provider's answer and the order's commit. On a
    // shared PostgreSQL database another process may be working on an open attempt right now: its lease says so.
    const settled = await settleOpenAttempts(ctx, { exclusive: store.dialect === 'sqlite' });
    if (settled.orders + settled.released + settled.refunds + settled.failed > 0) logger.warn(settled, 'payment attempts left open by a crash');

    const printers = (options.printers ?? []).map(parsePrinter);
    if (new Set(printers.map((printer) => printer.id)).size !== printers.length) throw new PrinterUrlError('the same printer is configured twice');
    if (!options.systemPrint && printers.some((printer) => printer.kind === 'system')) throw new PrinterUrlError('system: printers print from the desktop app only');
    const timeZone = options.printTimeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

    printQueue = await startPrintQueue(ctx, {
      printers,
      systemPrint: options.systemPrint,
      timeZone,
      logger,
      backoff: options.printTuning?.backoff,
      tcp: options.printTuning?.tcp,
      probeIntervalMs: options.printTuning?.probeIntervalMs,
    });
    const queue = printQueue;

    const keys = store.repos.keys;
    const staffPin = await staffPinHash(store.repos.staffPins, options.dataDir, options.staffPinHash, now());
    const ui = await uiFor(options.uiDir, keys, simulator.provider.testTokens, uiKeyName(store.dialect, options.dataDir), ctx.requireShift);
    const work = inFlight();
    const app = await buildApp({
      ctx,
      inFlight: work,
      keys,
      ...(ui && { ui }),
      simulator,
      sync: () => worker,
      allocator: () => allocator,
      // a terminal's gift cards are its hub's: read and held there within the request (issue #24)
      ...(options.upstream !== undefined && { giftCardHub: createHubGiftCards({ url: options.upstream.url, key: options.upstream.key }) }),
      // a terminal's gates ask its hub within the request while it answers, so two gates never admit one ticket (issue #26)
      ...(options.upstream !== undefined && {
        checkinHub: createHubCheckins({
          url: options.upstream.url,
          key: options.upstream.key,
          link: {
            online: () => worker?.status().online ?? null,
            offered: () => worker?.status().checkins?.accepted ?? null,
            lastSuccessAt: () => Date.parse(worker?.status().lastSuccessAt ?? '') || 0,
          },
        }),
      }),
      logger,
      rateLimit: options.rateLimit ?? 50,
      allowedHosts: options.allowedHosts ?? [],
      printing: {
        printing: { printerIds: printers.map((printer) => printer.id), wake: (printer) => queue.wake(printer) },
        printers: () => queue.status(),
        timeZone,
      },
      ...(options.capabilities !== undefined && { capabilities: options.capabilities }),
      ...(options.allocations === false && { allocations: false }),
      ...(options.allocationCap !== undefined && { allocationCap: options.allocationCap }),
      staffPinHash: staffPin.hash,
    });
    const host = options.host ?? '127.0.0.1';
    // what the start wrote (settled attempts, the UI's key) is on the disk before the first request
    await store.whenDurable();
    await app.listen({ port: options.port ?? 8787, host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    baseUrl = url;

    let settling = false;
    // Several engine processes may share the database (contract §16): one of them tidies at a time, the others
    // skip this round (the lock is the transaction's, so a process that dies mid-sweep lets go at once).
    const tidy = () =>
      store.transaction(async (tx) => {
        if (!(await tx.locks.tryNamed('sweeper'))) return;
        await tx.carts.releaseExpired(ctx.now());
        await tx.allocations.lapse(ctx.now());
        await tx.allocations.purgeRequests(ctx.now() - 24 * 3600 * 1000);
        await tx.checkout.purgeKeys(ctx.now());
      });
    const sweep = () => {
      tidy().catch((error: unknown) => logger.error({ err: error }, 'tidying timed-out holds failed'));
      // A payment whose provider never answered must not lock its cart: once the deadline has passed, the
      // provider is asked about the attempt's reference; an unconfirmed refund is asked again.
      if (settling) return;
      settling = true;
      // counted like a request: it asks the provider, then writes — the database stays open until it is done
      const end = work.begin();
      settleOpenAttempts(ctx, { olderThanMs: deadlineMs })
        .then((counts) => counts.orders + counts.released + counts.refunds > 0 && logger.warn(counts, 'settled stale payment attempts'))
        .catch((error: unknown) => logger.error({ err: error }, 'settling stale payment attempts failed'))
        .finally(() => {
          settling = false;
          end();
        });
    };
    const sweeper = setInterval(sweep, options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
    if (options.upstream) {
      // the hub takes this terminal's ticket keys before the allocator asks for places (issue #26)
      worker = await startSyncWorker(ctx, { ...options.upstream, ...(ctx.ticketKeys !== undefined && { ticketKeys: ctx.ticketKeys }), onKeysGiven: () => allocator?.kick() }, logger);
      allocator = await startAllocator(
        ctx,
        {
          url: options.upstream.url,
          key: options.upstream.key,
          allocation: options.allocation ?? 10,
          offlineSales: options.offlineSales ?? false,
          gate: {
            until: () => worker?.gate() ?? 0,
            pause: (ms) => worker?.pause(ms),
            online: () => worker?.status().online ?? null,
            keysGiven: () => worker?.keysGiven() ?? false,
          },
          ...(options.allocationCycleMs !== undefined && { cycleMs: options.allocationCycleMs }),
        },
        logger,
      );
    }
    sweeper.unref();
    let closed: Promise<void> | undefined;
    return {
      url,
      port,
      ui: ui && { url: `${url}/`, config: ui.config },
      ...(staffPin.created !== undefined && { staffPinFile: staffPin.created }),
      close: () => {
        closed ??= (async () => {
          clearInterval(sweeper);
          // A clean shutdown gives the places in hand back to the hub (contract §10).
          await allocator?.stop({ giveBack: true });
          await worker?.stop();
          await queue.stop();
          await app.close();
          // Clients that went away no longer hold the server open, but their handlers may still run — a checkout
          // waiting for the provider's answer, the sweep settling a stale attempt: they finish before the database
          // closes. Bounded by the provider's deadline and 5 s: a checkout whose provider does not answer its status
          // question either (up to two more deadlines) is left to the next start's recovery, as after a crash.
          if (work.running > 0) logger.info({ running: work.running, waitMs: deadlineMs + 5_000 }, 'waiting for the work under way before closing the database');
          const running = await work.settled(deadlineMs + 5_000);
          if (running > 0) logger.warn({ running }, 'work still running at shutdown: the next start settles what it left');
          simulator.stop();
          await store.close();
        })();
        return closed;
      },
    };
  } catch (error) {
    await printQueue?.stop();
    await store.close();
    throw error;
  }
}

/**
 * The v1 channels' master key (store/channel-repo.ts) must be one file shared by every process of a database: on
 * PostgreSQL the start names its fingerprint (the operator compares them across processes), and any start warns
 * of live channels made with another key file, whose checksums fail here.
 */
async function reportMasterKey(store: Store, masterKey: Buffer, dataDir: string, logger: FastifyBaseLogger): Promise<void> {
  const fingerprint = masterKeyFingerprint(masterKey);
  if (store.dialect === 'postgres') logger.info({ masterKey: fingerprint }, `v1 channel secrets derive from ${join(dataDir, MASTER_KEY_FILE)}: every process of this database needs a copy of it`);
  const foreign = await channelsOfAnotherKey(store.repos.channels);
  if (foreign.length > 0) {
    logger.warn({ channels: foreign, masterKey: fingerprint }, `${foreign.length} v1 channel(s) were made with another ${MASTER_KEY_FILE} than ${dataDir}'s: their checksums fail here; copy the file they were made with into ${dataDir}`);
  }
}

const DEFAULT_UI_DIR = fileURLToPath(new URL('../dist/renderer/', import.meta.url));
const UI_KEY_NAME = 'ui-session';

/**
 * The name of this process's UI key. SQLite: one process per database, `ui-session`. PostgreSQL: several
 * processes share the keys (contract §16), so each names its own after its machine and data folder — a start
 * revokes its own previous key, never the key of the pages another live process serves.
 */
function uiKeyName(dialect: 'sqlite' | 'postgres', dataDir: string): string {
  if (dialect === 'sqlite') return UI_KEY_NAME;
  return `${UI_KEY_NAME}:${createHash('sha256').update(`${hostname()}\n${resolve(dataDir)}`).digest('hex').slice(0, 12)}`;
}

/** The UI to serve, with a fresh key for it: each start revokes the previous start's UI key. */
async function uiFor(uiDir: string | false | undefined, keys: Repos['keys'], testTokens: readonly string[], keyName: string, requireShift: boolean) {
  const root = uiDir === undefined ? DEFAULT_UI_DIR : uiDir;
  if (root === false || !existsSync(join(root, 'index.html'))) return undefined;
  await keys.revokeNamed(keyName);
  await keys.revokeNamed(`${keyName}:gate`);
  // Any process of this machine may read it: the kiosk's scopes only (card sales, its own orders, the sync
  // status). The box office's key comes from a staff sign-in. Every start's key shares one owner, so the
  // page's sale survives a restart.
  const { key } = await keys.create(keyName, ROLE_SCOPES.kiosk, { owner: 'kiosk' });
  // The gate screen (?mode=gate) checks tickets with its own key: nothing of a sale, no orders.
  const gate = await keys.create(`${keyName}:gate`, ROLE_SCOPES.gate, { owner: 'gate' });
  return { root, config: { apiKey: key, gateKey: gate.key, apiBase: '/api/v3', testTokens, staffSignIn: true, requireShift } };
}

function readCatalogFile(path: string): CatalogDocument {
  let doc: unknown;
  try {
    const size = statSync(path).size;
    if (size > LIMITS.maxCatalogBytes) throw new Error(`${size} bytes, more than the limit of ${LIMITS.maxCatalogBytes} (16 MiB)`);
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CatalogFileError(`cannot read catalog ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Value.Check(CatalogDocument, doc)) {
    const problems = Value.Errors(CatalogDocument, doc).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new CatalogFileError(`catalog ${path} is not a valid catalog document: ${problems.join('; ')}`);
  }
  return doc;
}
