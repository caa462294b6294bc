import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { EngineError } from '../domain/errors';
import type { Repos } from '../store/port';
import type { EngineContext } from '../shared/context';
import { installAuth } from './auth';
import { installOwnership } from './ownership';
import { errorBody, installErrorHandling, sendError } from './error-handler';
import { installGuard } from './guard';
import { installRequestLanguage } from './language';
import { trackHandlers, type InFlight } from './in-flight';
import { clientErrorHandler } from './client-errors';
import { requestSerializer } from './log-redaction';
import { lazySchemas } from './schema-compilers';
import { openApiOptions, swagger } from './openapi';
import type { Allocator } from '../sync/allocator';
import type { HubGiftCards } from '../sync/hub-gift-cards';
import type { AllocationCap } from '../domain/allocations';
import { allocationRoutes } from './routes/allocations';
import { holdingRoutes } from './routes/holdings';
import { cartItemRoutes } from './routes/cart-items';
import { cartRoutes } from './routes/carts';
import { catalogRoutes } from './routes/catalog';
import { systemRoutes } from './routes/system';
import { giftCardRoutes, hubGiftCardRoutes } from './routes/gift-cards';
import { checkinRoutes } from './routes/checkins';
import type { CheckinHub } from '../checkins/hub-port';
import { hubRoutes } from './routes/hub';
import { hubJournalRoutes } from './routes/hub-journal';
import { hubCheckinRoutes } from './routes/hub-checkins';
import { orderRoutes } from './routes/orders';
import { orderSummaryRoutes } from './routes/order-summary';
import { journalRoutes } from './routes/journal';
import { ticketKeyRoutes } from './routes/ticket-keys';
import { syncRoutes } from './routes/sync';
import type { SyncSource } from '../sync/sync-status';
import { pspRoutes } from './routes/psp';
import type { Simulator } from '../checkout/payments/simulator';
import { uiRoutes, type UiConfig } from './routes/ui';
import { voucherRoutes } from './routes/vouchers';
import { legacyRoutes } from '../legacy-v1/routes/usage';
import { basketRoutes } from '../legacy-v1/routes/baskets';
import { migrationGuideRoutes } from '../legacy-v1/routes/migration-guide';
import { installLegacyHeaders } from '../legacy-v1/http/deprecation';
import { printingRoutes, type PrintingRoutesOptions } from './routes/printing';
import { shiftRoutes } from './routes/shifts';
import { shiftOutputRoutes } from './routes/shift-output';
import { staffSessionRoutes } from './routes/staff-sessions';

export interface AppOptions {
  readonly ctx: EngineContext;
  readonly keys: Repos['keys'];
  readonly simulator: Simulator;
  /** a terminal's allocations, once started (absent when standalone) */
  readonly allocator?: () => Allocator | undefined;
  /** the sync worker, once started (absent when standalone) */
  readonly sync: () => SyncSource | undefined;
  /** at a terminal: its hub, where gift cards live (read, held) within the request (issue #24) */
  readonly giftCardHub?: HubGiftCards;
  /** at a terminal whose hub offers check-ins: where check-ins are decided while online (issue #26) */
  readonly checkinHub?: CheckinHub;
  readonly logger: FastifyBaseLogger;
  /** requests per second per API key (burst the same); 0 turns limiting off */
  readonly rateLimit: number;
  readonly allowedHosts: readonly string[];
  /** serve GET /capabilities and POST /orders/import (default: yes, batches of 100); false: a plain v3 service, for tests */
  readonly capabilities?: false | { readonly importBatch?: number };
  /** a hub grants allocations to its terminals (default true; contract §10) */
  readonly allocations?: boolean;
  /** at a hub: the most of one item one terminal may hold (default domain/allocations.ts DEFAULT_ALLOCATION_CAP) */
  readonly allocationCap?: AllocationCap;
  /** the staff PIN's hash: POST /staff-sessions hands the box office its key for it (staff/sessions.ts) */
  readonly staffPinHash?: string;
  /** the built UI to serve at `/`, with its config; absent when there is none */
  readonly ui?: { readonly root: string; readonly config: UiConfig };
  /** the print queue's jobs and printers (contract §12) */
  readonly printing: Omit<PrintingRoutesOptions, 'ctx'>;
  /** counts the handlers still running and their waits for the disk, so a shutdown can let them finish (in-flight.ts) */
  readonly inFlight?: InFlight;
}

/**
 * On close (SIGTERM): Fastify closes the connections idle at that moment; a connection busy then would
 * stay open for its 72 s keep-alive once its answer went out. So every answer sent while closing says
 * `Connection: close`, and connections that fall idle are closed as they do — the process is ready to
 * exit as soon as the last request is answered.
 */
function installGracefulClose(app: FastifyInstance): void {
  let closing = false;
  let sweeper: NodeJS.Timeout | undefined;
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('preClose', (done) => {
    closing = true;
    sweeper = setInterval(() => app.server.closeIdleConnections(), 100);
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweeper);
    done();
  });
}

/** The HTTP application, apart from `listen`, so tests and `serve` build the very same thing. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  // Route schemas compile on first use and, once the server listens, in the background (schema-compilers.ts).
  const schemas = lazySchemas();
  const app = Fastify({
    // Request lines log the URL with ticket codes and challenge references redacted.
    loggerInstance: options.logger.child({}, { serializers: { req: requestSerializer } }),
    bodyLimit: 256 * 1024,
    clientErrorHandler,
    // A body announced by Content-Length that never arrives in full is answered 408 after two minutes.
    requestTimeout: 120_000,
    // Ids are validated by the route schemas (up to 128 characters), not cut off earlier by the router.
    routerOptions: { maxParamLength: 1024 },
    // Errors the router raises before any route runs (bad URL encoding, over-long parameters) use the envelope too.
    frameworkErrors: (error, _request, reply) => {
      const known = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? new EngineError('RESOURCE_NOT_FOUND') : new EngineError('MALFORMED_REQUEST', { details: { reason: error.code } });
      void sendError(reply, known);
    },
    // Bodies are validated as sent: no coercion of "1" to 1, no silent removal of unknown fields.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false } },
    schemaController: { compilersFactory: schemas.compilersFactory },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // before the first route: the hook sees only routes added after it
  if (options.inFlight) trackHandlers(app, options.inFlight);
  installRequestLanguage(app);
  installErrorHandling(app);
  // Bodies are JSON only: text/plain answers 415 like any other type instead of reaching validation as a string.
  app.removeContentTypeParser('text/plain');
  installGuard(app, { allowedHosts: options.allowedHosts });
  installAuth(app, options.keys, options.ctx.now);
  installOwnership(app, options.ctx);
  installLegacyHeaders(app, options.ctx.store.repos.baskets, options.ctx.now);
  if (options.rateLimit > 0) {
    await app.register(rateLimit, {
      max: options.rateLimit,
      timeWindow: 1000,
      keyGenerator: (request) => request.apiKeyId ?? request.ip,
      errorResponseBuilder: (_request, context) =>
        new EngineError('RATE_LIMIT_EXCEEDED', { details: { retryAfter: Math.max(1, Math.ceil(context.ttl / 1000)) } }),
    });
  }
  await app.register(swagger, openApiOptions);
  await app.register(
    async (api) => {
      await api.register(systemRoutes, { database: { kind: options.ctx.store.dialect, ping: () => options.ctx.store.ping() } });
      await api.register(catalogRoutes, { ctx: options.ctx });
      await api.register(cartRoutes, { ctx: options.ctx, allocator: options.allocator ?? (() => undefined) });
      await api.register(cartItemRoutes, { ctx: options.ctx });
      await api.register(voucherRoutes, { ctx: options.ctx });
      await api.register(orderRoutes, { ctx: options.ctx, giftCardHub: options.giftCardHub });
      await api.register(orderSummaryRoutes, { ctx: options.ctx });
      await api.register(journalRoutes, { ctx: options.ctx });
      await api.register(ticketKeyRoutes, { ctx: options.ctx });
      const allocations = options.capabilities !== false && options.allocations !== false;
      if (options.capabilities !== false) await api.register(hubRoutes, { ctx: options.ctx, importBatch: options.capabilities?.importBatch, allocations });
      await api.register(giftCardRoutes, { ctx: options.ctx, giftCardHub: options.giftCardHub });
      if (options.capabilities !== false) await api.register(hubGiftCardRoutes, { ctx: options.ctx });
      if (options.capabilities !== false) await api.register(hubJournalRoutes, { ctx: options.ctx });
      if (options.capabilities !== false) await api.register(hubCheckinRoutes, { ctx: options.ctx });
      if (allocations) await api.register(allocationRoutes, { ctx: options.ctx, cap: options.allocationCap });
      await api.register(syncRoutes, { ctx: options.ctx, worker: options.sync });
      await api.register(legacyRoutes, { channels: options.ctx.store.repos.channels, baskets: options.ctx.store.repos.baskets });
      await api.register(printingRoutes, { ctx: options.ctx, ...options.printing });
      await api.register(shiftRoutes, { ctx: options.ctx });
      await api.register(shiftOutputRoutes, { ctx: options.ctx, printing: options.printing.printing });
      await api.register(holdingRoutes, { ctx: options.ctx, allocator: options.allocator ?? (() => undefined) });
      await api.register(checkinRoutes, { ctx: options.ctx, checkinHub: options.checkinHub });
      if (options.staffPinHash !== undefined) await api.register(staffSessionRoutes, { keys: options.keys, pinHash: options.staffPinHash, now: options.ctx.now });
    },
    { prefix: '/api/v3' },
  );
  await app.register(basketRoutes, {
    prefix: '/api/v1',
    legacy: { ctx: options.ctx },
    channels: options.ctx.store.repos.channels,
    rateLimit: options.rateLimit,
  });
  await app.register(migrationGuideRoutes, { prefix: '/api/v1' });
  await app.register(pspRoutes, { simulator: options.simulator });
  if (options.ui) await app.register(uiRoutes, options.ui);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer');
  });
  // Group commit (store/durability.ts): no answer goes out before every commit made until then is on the disk —
  // what the request wrote, and what it may show of others' writes. Nothing to wait for when nothing was
  // written since the last sync (a read among reads answers at once). If the disk failed, nothing more is
  // called done: 500 in the envelope, for every request, until a restart.
  app.addHook('onSend', async (request, reply, payload) => {
    const end = options.inFlight?.begin();
    try {
      await options.ctx.whenDurable();
      return payload;
    } catch (error) {
      request.log.fatal({ err: error }, 'the database could not be made durable; restart the engine');
      reply.code(500).header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(errorBody(new EngineError('INTERNAL_ERROR'), request));
    } finally {
      end?.();
    }
  });
  installGracefulClose(app);
  app.addHook('onListen', (done) => {
    const started = performance.now();
    schemas.warmUp().then(
      (compiled) => schemas.pending === 0 && app.log.info({ compiled, ms: Math.round(performance.now() - started) }, 'route schemas compiled'),
      (error: unknown) => app.log.error({ err: error }, 'a route schema does not compile'),
    );
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    schemas.stop();
    done();
  });
  return app;
}
