import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { EngineError } from '../domain/errors';
import { CatalogFileError, LOG_REDACTIONS, startEngine } from '../start';
import { DatabaseOpenError, parseDatabaseUrl } from '../store/open';
import { redactUrl } from '../store/postgres/connect';
import { parseServeArgs, titleWithoutKey, UsageError } from './args';

/**
 * `npm run serve -- [options]`: the engine and its API on one localhost port (contract §1).
 * Human-readable lines go to stdout; JSON logs (pino) go to stderr.
 */
async function main(): Promise<void> {
  const title = titleWithoutKey(process.argv.slice(2));
  if (title !== undefined) process.title = title;
  const args = parseServeArgs(process.argv.slice(2), process.env);
  const logger = pino(
    { level: args.logLevel, redact: [...LOG_REDACTIONS] },
    pino.destination(2),
  );
  for (const warning of args.warnings) logger.warn(warning);
  const engine = await startEngine({ ...args, ...bundledPaths(), logger });
  console.log(`listening on ${engine.url}`);
  console.log(engine.ui ? `ui: ${engine.ui.url}` : 'ui: not built — run `npm run build`, then start again (the API is at /api/v3)');
  if (args.upstream) console.log(`sync: upstream ${args.upstream.url}`);
  // which database this process serves, its password (if the URL carries one) taken out
  const database = parseDatabaseUrl(args.database);
  if (database.kind === 'postgres') console.log(`database: ${redactUrl(database.url)}`);
  // made at this first start: where to read it (the PIN itself is never printed or logged)
  if (engine.staffPinFile !== undefined) console.log(`staff PIN: see ${engine.staffPinFile}`);

  let stoppingSince: number | undefined;
  const stop = (signal: string) => {
    if (stoppingSince !== undefined) {
      // The same signal twice at once is one request to stop: `npm run serve` forwards the signal it gets to the
      // engine, and a terminal's Ctrl-C (or a service manager stopping the process group) signals npm and the
      // engine alike — the engine hears it twice within milliseconds. Taken as a second signal, it cut off the
      // answers of the requests under way.
      if (performance.now() - stoppingSince < REPEATED_SIGNAL_MS) return;
      // A second signal while the shutdown waits for work under way (up to the provider's deadline): exit now,
      // as a crash would; the next start settles what was left.
      logger.warn({ signal }, 'second signal: exiting without waiting; the next start settles what was under way');
      process.exit(1);
    }
    stoppingSince = performance.now();
    logger.info({ signal }, 'shutting down');
    engine.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * A signal within this long of the first is the first one delivered twice (npm forwarding it, a process group
 * signalled as a whole), not an operator's second request to exit at once.
 */
const REPEATED_SIGNAL_MS = 1000;

/**
 * The esbuild bundle (dist/engine/serve.mjs, see bundle.mjs) names its migrations (copied beside it) and the built
 * UI (dist/renderer) explicitly; run from source under tsx, the engine's defaults find both.
 */
function bundledPaths(): { migrationsDir?: string; postgresMigrationsDir?: string; uiDir?: string } {
  if (process.env.KASSA_BUNDLED !== '1') return {};
  const here = dirname(fileURLToPath(import.meta.url));
  return { migrationsDir: join(here, 'migrations'), postgresMigrationsDir: join(here, 'postgres-migrations'), uiDir: join(here, '..', 'renderer') };
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof CatalogFileError || error instanceof DatabaseOpenError) console.error(`error: ${error.message}`);
  else if (error instanceof EngineError) console.error(`error: catalog rejected: ${error.code} at ${error.param ?? '?'} ${JSON.stringify(error.details ?? {})}`);
  else console.error(error);
  process.exit(1);
});
