import pg from 'pg';
import { migratePostgres } from './migrate';

/** How `openPostgres` sizes and watches its pool. */
export interface PostgresOptions {
  /** connections the pool opens at most (default 10: enough for one engine process on a few cores; the server's
   * max_connections, 100 by default, must cover every process's pool together) */
  max?: number;
  /** how long a query waits for a connection — a new one, or a free one of a full pool — before it fails (default 5000 ms) */
  connectionTimeoutMillis?: number;
  /** the migrations folder (default: engine/store/postgres/migrations) */
  migrationsDir?: string;
  /** told when a connection fails, idle in the pool or checked out (the server restarted or ended the session);
   * default: a warning on stderr */
  onConnectionError?: (error: Error) => void;
}

/** The pool's type parsers: pg's own, except int8 (oid 20), which becomes a JavaScript number. */
const types: pg.CustomTypesConfig = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === INT8 ? parseInt8 : pg.types.getTypeParser(oid, format)),
};
const INT8 = 20;

/**
 * int8 text to a number. Every value Kassa stores (money, epoch ms, counters) is far inside 2^53; a value past
 * it fails its query rather than come back silently rounded.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 ${text} is past JavaScript's safe integers`);
  return value;
}

/**
 * Opens a pool on the PostgreSQL database at `url` (`postgres://` or `postgresql://`), runs its pending
 * migrations (once per database whichever process comes first: see migratePostgres) and answers the pool.
 *
 * The pool: int8 read as JavaScript numbers through the pool's own `types` (pg's global parsers are left alone),
 * `application_name` kassa (pg_stat_activity tells the engine's sessions apart), a bounded wait for a connection,
 * TCP keep-alive, at most `max` connections (default 10). A failed connection — idle or checked out, the server
 * restarted or ended the session — goes to `onConnectionError` instead of crashing the process; the pool drops
 * that client and opens a new one on the next query, so requests fail while the server is down and work again
 * once it is back.
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<pg.Pool> {
  const protocol = parseUrl(url).protocol;
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new Error(`not a PostgreSQL URL (postgres:// or postgresql://): ${redactUrl(url)}`);
  }
  const pool = new pg.Pool({
    connectionString: url,
    types,
    application_name: 'kassa',
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5_000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
  });
  const onConnectionError = options.onConnectionError ?? ((error: Error) => {
    process.emitWarning(`PostgreSQL ${redactUrl(url)}: a connection failed (${error.message}); the pool replaces it`);
  });
  // pg emits 'error' on a client whose connection fails; with no listener that is an uncaught exception. The pool
  // listens to its idle clients only (and re-emits on itself), so every client gets its own listener for the time
  // it is checked out too: its pending query fails, later ones answer "not queryable", and the pool drops it when
  // it is released.
  pool.on('connect', (client) => client.on('error', onConnectionError));
  pool.on('error', () => {
    // an idle client failed: already told through that client's own listener above; the pool has dropped it
  });
  try {
    await migratePostgres(pool, options.migrationsDir);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return pool;
}

/** `url` with its password taken out (user info and any `password` parameter), for logs and error messages. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // not a URL: drop whatever sits between '//' and '@', where a password would be
    return url.replace(/\/\/[^/@]*@/, '//***@');
  }
  if (parsed.password !== '') parsed.password = '***';
  if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
  return parsed.toString();
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new Error(`not a PostgreSQL URL (postgres:// or postgresql://): ${redactUrl(url)}`);
  }
}
