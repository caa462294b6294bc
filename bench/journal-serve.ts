import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { parseServeArgs } from '../engine/cli/args';
import { LOG_REDACTIONS, startEngine } from '../engine/start';

/**
 * Bench only: the engine as `serve` starts it, with startEngine's bench-only `journal` option (there is no CLI flag
 * for it, by design) taken from the first argument, `journal=on` or `journal=off`; the rest are serve's options.
 * The journal-cost scenario (bench/journal-cost.ts) runs both sides from this one bundle
 * (dist/bench/journal-serve.mjs, built like dist/engine/serve.mjs), so that they differ in that option alone.
 */
async function main(): Promise<void> {
  const [mode, ...rest] = process.argv.slice(2);
  if (mode !== 'journal=on' && mode !== 'journal=off') throw new Error(`first argument journal=on or journal=off, not ${mode ?? 'nothing'}`);
  const args = parseServeArgs(rest, process.env);
  const logger = pino({ level: args.logLevel, redact: [...LOG_REDACTIONS] }, pino.destination(2));
  // the migrations and the UI as the engine's own bundle has them (dist/engine, dist/renderer; engine/cli/bundle.mjs)
  const dist = join(dirname(fileURLToPath(import.meta.url)), '..');
  const engine = await startEngine({
    ...args, logger, journal: mode === 'journal=on',
    migrationsDir: join(dist, 'engine', 'migrations'), postgresMigrationsDir: join(dist, 'engine', 'postgres-migrations'), uiDir: join(dist, 'renderer'),
  });
  console.log(`listening on ${engine.url}`);
  const stop = () => void engine.close().then(() => process.exit(0), () => process.exit(1));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
