import { openDatabase } from './db';
import type { Store } from './port';
import { createPostgresStore } from './postgres/store';
import { createSqliteStore } from './sqlite-store';

/** Where `--database` points: SQLite in the data folder (the default), or a PostgreSQL server. */
export type DatabaseUrl = { readonly kind: 'sqlite' } | { readonly kind: 'postgres'; readonly url: string };

export class DatabaseUrlError extends Error {}

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
    return createPostgresStore(target.url, { masterKey: options.masterKey, ...(options.postgresMigrationsDir !== undefined && { migrationsDir: options.postgresMigrationsDir }) });
  }
  // before anything else writes: from here on commits wait for the disk in groups (store/durability.ts)
  return createSqliteStore(openDatabase(options.dataDir, options.migrationsDir), { masterKey: options.masterKey, ...(options.groupCommit === false && { groupCommit: false }) });
}
