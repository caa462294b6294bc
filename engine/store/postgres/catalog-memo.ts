import type { Queryable } from './queryable';

/**
 * Catalog facts kept per catalog version (store/catalog-memo.ts says which and why), for the PostgreSQL
 * adapter. SQLite reads the version once per turn of the event loop, within which a request's transaction runs;
 * on PostgreSQL a transaction spans many turns and other processes import catalogs, so:
 *   - the kept facts live in a `PgCatalogMemo`, one per store (database) and process, shared by every
 *     transaction — `createPgCatalogMemo()`;
 *   - a `session` of it belongs to one transaction (one repository built on that transaction's client): it reads
 *     stock_clock.catalog once, at its first look-up, and serves and keeps facts only of that version. A session
 *     that reads a newer version than the memo holds clears it; one that reads an older version (a transaction
 *     that began before another process's import) reads through without keeping anything.
 * The version is read before any fact (READ COMMITTED: a later statement sees at least what an earlier one saw),
 * so facts kept under a version are never older than it: stale facts never outlive their version.
 * So after an import commits on any process, every transaction that starts later sees the new facts. A
 * transaction under way while an import commits may mix facts of both versions, as its own uncached reads at
 * READ COMMITTED would. A catalog changed by hand is seen when that change moves stock_clock.catalog.
 */

export interface PgCatalogMemo {
  /** the version the kept facts belong to; undefined: nothing kept */
  at: number | undefined;
  readonly tables: Set<{ clear(): void }>;
}

/** A look-up kept per catalog version: the facts under `key`, or what `read` finds (kept when not undefined). */
export type PgMemoized<T> = (key: string, read: () => Promise<T | undefined>) => Promise<T | undefined>;

export interface PgCatalogSession {
  /**
   * Reads the version (once per session). Call it before reading facts outside `kept` that may end up kept
   * (a batch read of several ids): facts must never be older than the version they are kept under.
   */
  ready(): Promise<void>;
  /** look-ups through `table` (made once per memo by pgMemoTable), kept per catalog version */
  kept<T>(table: Map<string, T>): PgMemoized<T>;
}

export function createPgCatalogMemo(): PgCatalogMemo {
  return { at: undefined, tables: new Set() };
}

/** A new kind of fact kept in `memo` (cleared with it). */
export function pgMemoTable<T>(memo: PgCatalogMemo): Map<string, T> {
  const table = new Map<string, T>();
  memo.tables.add(table);
  return table;
}

/** Forgets every kept fact: the catalog writer calls it as it moves the version (and once it has written). */
export function pgForgetCatalogFacts(memo: PgCatalogMemo): void {
  for (const table of memo.tables) table.clear();
  memo.at = undefined;
}

/** The memo as one transaction sees it (`q`: that transaction's client): the version is read once. */
export function pgCatalogSession(memo: PgCatalogMemo, q: Queryable): PgCatalogSession {
  let version: Promise<number> | undefined;
  const current = async (): Promise<number> => {
    version ??= q.query<{ catalog: number }>('SELECT catalog FROM stock_clock WHERE id = 1').then((result) => Number(result.rows[0]?.catalog ?? 0));
    const seen = await version;
    if (memo.at === undefined || seen > memo.at) {
      pgForgetCatalogFacts(memo);
      memo.at = seen;
    }
    return seen;
  };
  return {
    async ready() {
      await current();
    },
    kept<T>(facts: Map<string, T>): PgMemoized<T> {
      return async (key, read) => {
        const seen = await current();
        if (seen !== memo.at) return read();
        const hit = facts.get(key);
        if (hit !== undefined) return hit;
        const found = await read();
        if (found !== undefined && memo.at === seen) facts.set(key, found);
        return found;
      };
    },
  };
}
