import { openDatabase } from './db';
import type { Store } from './port';
import { redactUrl } from './postgres/connect';
import { createPostgresStore } from './postgres/store';
import { createSqliteStore } from './sqlite-store';

/** Where `--database` points: SQLite in the data folder (the default), or a PostgreSQL server. */
export type DatabaseUrl = { readonly kind: 'sqlite' } | { readonly kind: 'postgres'; readonly url: string };

export class DatabaseUrlError extends Error {}

/**
 * The database named by `--database` could not be opened (PostgreSQL unreachable, a login refused, a database
 * missing): its message names the server with the password taken out, and says why — fit for an operator.
 */
export class DatabaseOpenError extends Error {}

/** `sqlite:` (or nothing): kassa.sqlite in --data; `postgres://…` or `postgresql://…`: that database. */
export function parseDatabaseUrl(value: string | undefined): DatabaseUrl {
  if (value === undefined || value === '' || value === 'sqlite:' || value === 'sqlite') return { kind: 'sqlite' };
  if (/^postgres(ql)?:\/\//.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new DatabaseUrlError('--database: not a valid postgres:// URL');
    }
    return { kind: 'postgres', url: value };
  }
  throw new DatabaseUrlError('--database takes sqlite: or a postgres://user@host:port/db URL');
}

/** Opens the store `--database` names, its migrations run (on PostgreSQL once, whichever process comes first). */
export async function openStore(database: string | undefined, options: { dataDir: string; migrationsDir?: string; postgresMigrationsDir?: string; masterKey: Buffer; groupCommit?: boolean }): Promise<Store> {
  const target = parseDatabaseUrl(database);
  if (target.kind === 'postgres') {
    try {
      return await createPostgresStore(target.url, { masterKey: options.masterKey, ...(options.postgresMigrationsDir !== undefined && { migrationsDir: options.postgresMigrationsDir }) });
    } catch (error) {
      throw new DatabaseOpenError(`cannot open the PostgreSQL database ${redactUrl(target.url)}: ${reasonOf(error, target.url)}`, { cause: error });
    }
  }
  // before anything else writes: from here on commits wait for the disk in groups (store/durability.ts)
  return createSqliteStore(openDatabase(options.dataDir, options.migrationsDir), { masterKey: options.masterKey, ...(options.groupCommit === false && { groupCommit: false }) });
}

/**
 * Why opening failed, in one line: pg's message (a refused or unresolvable host names itself), or the messages of
 * an AggregateError (a name with several addresses: each refused), with any password of `url` taken out.
 */
function reasonOf(error: unknown, url: string): string {
  const messages = error instanceof AggregateError ? error.errors.map((each) => reasonOf(each, url)) : [error instanceof Error ? error.message : String(error)];
  let reason = messages.filter((message) => message !== '').join('; ') || 'no reason given';
  const password = new URL(url).password;
  for (const spelling of password === '' ? [] : [password, decoded(password)]) reason = reason.split(spelling).join('***');
  return reason;
}

/** a URL's percent-encoded part as text (itself when it is not well-formed) */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
