import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parsePrinter, PrinterUrlError } from '../printing/printers';
import { parseDatabaseUrl, type DatabaseUrl } from '../store/open';
import { redactUrl } from '../store/postgres/connect';
import { DEFAULT_ALLOCATION_CAP_FLOOR, type AllocationCap } from '../domain/allocations';

/** The environment variable that carries the upstream's key (kept out of the process list). */
export const UPSTREAM_KEY_ENV = 'KASSA_UPSTREAM_KEY';
/** The environment variable `--database` defaults to (contract §16). */
export const DATABASE_ENV = 'KASSA_DATABASE';

/**
 * `--database` (or KASSA_DATABASE): `sqlite:` or a postgres:// URL; a malformed one is a UsageError. A password
 * belongs in PGPASSWORD or ~/.pgpass (libpq's own places, which pg reads), not in a URL on the command line that
 * every user of the machine can read in the process list: one there works, with a warning added to `warnings`
 * (`serve` also hides it from its process title: see `titleWithoutKey`). Shared by `serve` and `keys`.
 */
export function databaseOf(inArgv: string | undefined, inEnv: string | undefined, warnings: string[]): { database?: string } {
  const value = inArgv ?? inEnv;
  if (value === undefined) return {};
  let target: DatabaseUrl;
  try {
    target = parseDatabaseUrl(value);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  // (the environment is not in the process list: KASSA_DATABASE may carry one without a word)
  if (inArgv !== undefined && target.kind === 'postgres' && new URL(target.url).password !== '') {
    warnings.push('--database carries a password, which other users of this machine can read in the process list: put it in PGPASSWORD or ~/.pgpass instead');
  }
  return { database: value };
}

/**
 * Command-line options of `serve` (contract §1). The upstream's key is a secret, so it comes from a file
 * (`--upstream-key-file FILE`, first line) or the environment (`KASSA_UPSTREAM_KEY`), never from argv,
 * which every user of the machine can read in the process list. `--upstream-key KEY` is what contract §1 and
 * §10 name, so it still works, but it adds a warning to `warnings`, which `serve` logs, and `serve` rewrites its
 * process title at once (see `titleWithoutKey`) so that the key stays in the process list for as short a time
 * as possible.
 */
export function parseServeArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}) {
  const { values } = strictParse({
    args: [...argv],
    strict: true,
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      data: { type: 'string', default: './data' },
      database: { type: 'string' },
      catalog: { type: 'string' },
      'no-demo': { type: 'boolean', default: false },
      'hold-seconds': { type: 'string', default: '900' },
      'rate-limit': { type: 'string', default: '50' },
      'allow-host': { type: 'string', multiple: true, default: [] },
      upstream: { type: 'string' },
      'upstream-key': { type: 'string' },
      'upstream-key-file': { type: 'string' },
      'payment-deadline-seconds': { type: 'string', default: '30' },
      'log-level': { type: 'string', default: 'info' },
      'psp-answer-delay-ms': { type: 'string', default: '0' },
      'sync-pull-seconds': { type: 'string', default: '60' },
      'sync-retry-ms': { type: 'string', default: '1000' },
      printer: { type: 'string', multiple: true, default: [] },
      allocation: { type: 'string', default: '10' },
      'allocation-cap': { type: 'string', default: '25%' },
      'staff-pin-file': { type: 'string' },
      'offline-sales': { type: 'boolean', default: false },
      'require-shift': { type: 'boolean', default: false },
    },
  });
  const warnings: string[] = [];
  // The environment's key is used only with --upstream: set in a shell, it must not turn a standalone till into an error.
  const key = upstreamKeyOf(values['upstream-key'], values['upstream-key-file'], values.upstream === undefined ? undefined : env[UPSTREAM_KEY_ENV], warnings);
  return {
    port: wholeNumber('--port', values.port, 65535),
    host: values.host,
    dataDir: values.data,
    ...databaseOf(values.database, env[DATABASE_ENV], warnings),
    catalogFile: values.catalog,
    demo: !values['no-demo'],
    holdSeconds: wholeNumber('--hold-seconds', values['hold-seconds'], 7 * 24 * 3600, 1),
    rateLimit: wholeNumber('--rate-limit', values['rate-limit'], 1_000_000),
    allowedHosts: values['allow-host'],
    upstream: upstreamOf(values.upstream, key, {
      pullIntervalMs: wholeNumber('--sync-pull-seconds', values['sync-pull-seconds'], 86_400, 1) * 1000,
      retryBaseMs: wholeNumber('--sync-retry-ms', values['sync-retry-ms'], 60_000, 1),
    }),
    allocation: wholeNumber('--allocation', values.allocation, 100_000),
    allocationCap: allocationCapOf(values['allocation-cap']),
    ...staffPinOf(env[STAFF_PIN_HASH_ENV], values['staff-pin-file']),
    offlineSales: values['offline-sales'],
    // contract §14: cash (sales and refunds) only while a shift is open
    requireShift: values['require-shift'],
    logLevel: values['log-level'],
    paymentAnswerDelayMs: wholeNumber('--psp-answer-delay-ms', values['psp-answer-delay-ms'], 600_000),
    printers: printersOf(values.printer),
    paymentDeadlineMs: wholeNumber('--payment-deadline-seconds', values['payment-deadline-seconds'], 600, 1) * 1000,
    warnings,
  };
}

/** The upstream key from exactly one source: a file, the environment, or (deprecated) argv. */
function upstreamKeyOf(inArgv: string | undefined, file: string | undefined, inEnv: string | undefined, warnings: string[]): string | undefined {
  if (inArgv !== undefined && file !== undefined) throw new UsageError('--upstream-key and --upstream-key-file exclude each other');
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read --upstream-key-file ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const key = text.split(/\r?\n/, 1)[0]?.trim() ?? '';
    if (key === '') throw new UsageError(`--upstream-key-file ${file} is empty`);
    return key;
  }
  if (inArgv !== undefined) {
    warnings.push(`--upstream-key puts the key in the process list, where every user of this machine can read it: use --upstream-key-file FILE or ${UPSTREAM_KEY_ENV} instead`);
    return inArgv;
  }
  return inEnv === undefined || inEnv.trim() === '' ? undefined : inEnv.trim();
}

function wholeNumber(flag: string, text: string, max: number, min = 0): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, not "${text}"`);
  return value;
}

export class UsageError extends Error {}

/** The environment variable that carries the staff PIN's scrypt hash (`npm run staff-pin -- PIN`). */
export const STAFF_PIN_HASH_ENV = 'KASSA_STAFF_PIN_HASH';

/**
 * `--allocation-cap`: `P%` of each item's capacity (rounded up, at least 10 places — domain/allocations.ts says why
 * the default is 25%) or `N` places per item.
 */
function allocationCapOf(text: string): AllocationCap {
  const percent = /^(\d{1,3})%$/.exec(text);
  if (percent) {
    const value = Number(percent[1]);
    if (value < 1 || value > 100) throw new UsageError(`--allocation-cap takes a share from 1% to 100%, not "${text}"`);
    return { percent: value, floor: DEFAULT_ALLOCATION_CAP_FLOOR };
  }
  return { places: wholeNumber('--allocation-cap', text, 1_000_000, 1) };
}

/**
 * The staff PIN's hash: KASSA_STAFF_PIN_HASH, else `--staff-pin-file FILE` (its first line: the hash, or the
 * JSON line `npm run staff-pin` prints). Neither: the engine's own PIN (DATA/staff-pin.txt).
 */
function staffPinOf(inEnv: string | undefined, file: string | undefined): { staffPinHash?: string } {
  let hash = inEnv?.trim();
  let source = STAFF_PIN_HASH_ENV;
  if ((hash === undefined || hash === '') && file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read --staff-pin-file ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const line = text.split(/\r?\n/, 1)[0]?.trim() ?? '';
    hash = line.startsWith('{') ? jsonPinHash(line) : line;
    source = `--staff-pin-file ${file}`;
  }
  if (hash === undefined || hash === '') return {};
  if (!/^scrypt\$[\w-]+\$[\w-]+$/.test(hash)) throw new UsageError(`${source} holds no staff PIN hash: make one with npm run staff-pin -- PIN`);
  return { staffPinHash: hash };
}

function jsonPinHash(line: string): string {
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed === 'object' && parsed !== null && 'staffPinHash' in parsed && typeof parsed.staffPinHash === 'string') return parsed.staffPinHash;
  } catch {
    // not JSON: reported below as no hash
  }
  return '';
}

/** `--printer URL`, repeatable (contract §12); the first is where print requests go unless they name another. */
function printersOf(urls: readonly string[]): string[] {
  for (const url of urls) {
    let printer;
    try {
      printer = parsePrinter(url);
    } catch (error) {
      if (error instanceof PrinterUrlError) throw new UsageError(`--printer: ${error.message}`);
      throw error;
    }
    if (printer.kind === 'system') throw new UsageError(`--printer ${url}: system printers print from the desktop app only (its "printers" setting)`);
  }
  if (new Set(urls).size !== urls.length) throw new UsageError('--printer: the same printer is given twice');
  return [...urls];
}

function upstreamOf(url: string | undefined, key: string | undefined, tuning: { pullIntervalMs: number; retryBaseMs: number }) {
  if (url === undefined && key === undefined) return undefined;
  if (!url) throw new UsageError(`an upstream key (--upstream-key-file or ${UPSTREAM_KEY_ENV}) needs --upstream`);
  if (!key) throw new UsageError(`--upstream needs its key: --upstream-key-file FILE or ${UPSTREAM_KEY_ENV}`);
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new UsageError(`--upstream takes an http(s) URL, not "${url}"`);
  return { url, key, pollMs: Math.min(1000, tuning.retryBaseMs), ...tuning };
}

/** node:util parseArgs, with its errors (unknown option, missing value) turned into one-line usage errors. */
export function strictParse<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The process title `serve` shows instead of its command line when that line carries a secret
 * (`--upstream-key KEY` or `--upstream-key=KEY`; a password in `--database URL` or `--database=URL`): the same
 * words with the key as `***` and the URL's password as `***`; undefined when there is none to hide. Setting
 * `process.title` overwrites the memory the kernel shows as /proc/PID/cmdline.
 */
export function titleWithoutKey(argv: readonly string[]): string | undefined {
  let hidden = false;
  const words = argv.map((word, index) => {
    if (argv[index - 1] === '--upstream-key') {
      hidden = true;
      return '***';
    }
    if (word.startsWith('--upstream-key=')) {
      hidden = true;
      return '--upstream-key=***';
    }
    const url = argv[index - 1] === '--database' ? word : word.startsWith('--database=') ? word.slice('--database='.length) : undefined;
    if (url !== undefined && redactUrl(url) !== url) {
      hidden = true;
      return word === url ? redactUrl(url) : `--database=${redactUrl(url)}`;
    }
    return word;
  });
  return hidden ? ['kassa-serve', ...words].join(' ') : undefined;
}
