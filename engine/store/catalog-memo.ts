import type { Db } from './db';

/**
 * Catalog facts that do not change between catalog versions (an occurrence's event, venue and sale state, a
 * venue's currencies, price options, an event's extras), kept in memory per catalog version
 * (stock_clock.catalog, which every import moves, migration 0012) instead of read on every cart, extra,
 * voucher and checkout: four to six statements of every request. Stock, holds, vouchers' redemptions and
 * exchange rates are live and never kept here.
 *
 * The version is read once per turn of the event loop — a request's transaction runs within one — and the
 * engine's own catalog writer forgets the facts the moment it moves the version, so even the same turn never
 * reads facts of the version before. The database is the engine's: a catalog changed behind its back (SQL by
 * hand) is seen only when that change moves stock_clock.catalog too, or at the next start.
 *
 * Only facts found are kept (a look-up of ids that do not exist costs its query each time), so the memo is
 * bounded by the catalog's own size.
 */
/** A look-up kept per catalog version: the facts under `key`, or what `read` finds (kept when not undefined). */
export type Memoized<T> = (key: string, read: () => T | undefined) => T | undefined;

const memos = new WeakMap<Db, Set<() => void>>();

export function createCatalogMemo(db: Db) {
  const version = db.prepare<[], number>('SELECT catalog FROM stock_clock WHERE id = 1').pluck();
  const tables: { clear(): void }[] = [];
  let at: number | undefined;
  let checked = false;
  const clear = () => {
    for (const table of tables) table.clear();
  };
  const forget = () => {
    clear();
    at = undefined;
    checked = false;
  };
  let forgetters = memos.get(db);
  if (!forgetters) memos.set(db, (forgetters = new Set()));
  forgetters.add(forget);
  const current = () => {
    if (checked) return;
    checked = true;
    queueMicrotask(() => {
      checked = false;
    });
    const now = version.get();
    if (now !== at) {
      clear();
      at = now;
    }
  };
  return {
    /** a new kind of fact kept per catalog version */
    table<T>(): Memoized<T> {
      const kept = new Map<string, T>();
      tables.push(kept);
      return (key, read) => {
        current();
        const hit = kept.get(key);
        if (hit !== undefined) return hit;
        const found = read();
        if (found !== undefined) kept.set(key, found);
        return found;
      };
    },
  };
}

/** Called by the catalog writer as it moves the version: facts of the version before are never read again. */
export function forgetCatalogFacts(db: Db): void {
  for (const forget of memos.get(db) ?? []) forget();
}
