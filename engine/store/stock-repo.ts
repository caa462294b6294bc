import { availableSql } from './catalog-repo';
import type { Db } from './db';

/** The database's catalog and stock counters (migration 0012). */
export interface StockVersions { readonly catalog: number; readonly stock: number }

/** JSON arrays (text) of item ids, their available and their held places, in the same order */
export interface ItemStockJson { readonly ids: string; readonly available: string; readonly held: string }
export interface AreaStock { readonly id: string; readonly capacity: number; readonly available: number; readonly held: number }

/**
 * The live side of a seat map: only numbers, in the order of the primary key (occurrence, item id), so SQLite
 * walks the table without sorting. A prepared seat map (use-cases/seat-map.ts) knows where each row goes.
 */
export function createStockRepo(db: Db) {
  const versions = db.prepare<[], StockVersions>('SELECT catalog, stock FROM stock_clock WHERE id = 1');
  const ids = db.prepare<[string], string>('SELECT id FROM inventory_items WHERE occurrence_id = ? AND active = 1 ORDER BY id').pluck();
  const places = db.prepare<[string], [string, number]>('SELECT area_id, position FROM inventory_items WHERE occurrence_id = ? AND active = 1 ORDER BY id').raw();
  // No index on stock_version: one would be one more B-tree to write at every hold and sale. Walking one
  // occurrence's rows by its primary key without building text is a third of what live() costs.
  const changedPlaces = db.prepare<[string, number], [string, number, number, number]>(`
    SELECT area_id, position, ${availableSql()}, held FROM inventory_items WHERE occurrence_id = ? AND active = 1 AND stock_version > ?`).raw();
  // Materializing a JavaScript row per seat costs ten times what SQLite's scan does, so the numbers come
  // back as one text. An aggregate over a subquery with ORDER BY reads it in that order (the subquery is
  // not flattened into an aggregate), and the primary key gives that order without sorting. The text comes
  // as a BLOB (a Buffer outside the JavaScript heap) and is read into a typed array (outside it too): an
  // arena's 600 kB string split into 200,000 strings per request went to the old generation as garbage.
  const live = db.prepare<[string], Buffer | null>(`
    SELECT CAST(group_concat(stock, ',') AS BLOB) FROM (
      SELECT ${availableSql()} || ',' || held AS stock FROM inventory_items WHERE occurrence_id = ? AND active = 1 ORDER BY id)`).pluck();
  const changed = db.prepare<[string, number], ItemStockJson>(`
    SELECT json_group_array(id) AS ids, json_group_array(available) AS available, json_group_array(held) AS held FROM (
      SELECT id, ${availableSql()} AS available, held FROM inventory_items WHERE occurrence_id = ? AND active = 1 AND stock_version > ? ORDER BY id)`);
  // one pass over the occurrence's items, grouped by area; areas without items are added from areaIds
  const areaIds = db.prepare<[string], string>('SELECT id FROM areas WHERE occurrence_id = ? AND active = 1 ORDER BY position').pluck();
  const areaSums = db.prepare<[string], AreaStock>(`
    SELECT area_id AS id, SUM(capacity) AS capacity, SUM(${availableSql()}) AS available, SUM(held) AS held
    FROM inventory_items WHERE occurrence_id = ? AND active = 1 GROUP BY area_id`);
  return {
    versions(): StockVersions {
      const row = versions.get();
      if (!row) throw new Error('stock_clock has no row (migration 0012)');
      return row;
    },
    /** the active inventory item ids of an occurrence, in the order of live() */
    ids: (occurrenceId: string): string[] => ids.all(occurrenceId),
    /** [area id, position] of the active inventory items of an occurrence, in the order of live() */
    places: (occurrenceId: string): [string, number][] => places.all(occurrenceId),
    /** [area id, position, available, held] of the active items whose numbers changed after stock counter `since` */
    changedPlaces: (occurrenceId: string, since: number): [string, number, number, number][] => changedPlaces.all(occurrenceId, since),
    /** available and held of every active item, alternating, in the order of ids(); into `reuse` when it has the length */
    live(occurrenceId: string, reuse?: Float64Array): Float64Array {
      return numbers(live.get(occurrenceId) ?? null, reuse);
    },
    /** items whose held, sold or capacity changed after stock counter `since` (-1: every item) */
    changedSince(occurrenceId: string, since: number): ItemStockJson {
      const row = changed.get(occurrenceId, since);
      if (!row) throw new Error('an aggregate answers one row');
      return row;
    },
    /** every active area in catalog order with the sums over its active items */
    areas(occurrenceId: string): AreaStock[] {
      const sums = new Map(areaSums.all(occurrenceId).map((row) => [row.id, row]));
      return areaIds.all(occurrenceId).map((id) => sums.get(id) ?? { id, capacity: 0, available: 0, held: 0 });
    },
  };
}

export type StockRepo = ReturnType<typeof createStockRepo>;

const COMMA = 0x2c;
const ZERO = 0x30;

/**
 * Non-negative decimal integers separated by commas (ASCII) into numbers. Indexed loops: `for (const byte of
 * buffer)` goes through a Buffer's iterator, some 5 ms for a 20,000-seat map's 90 kB (0.5 ms indexed). Shared by
 * the PostgreSQL adapter (postgres/stock-repo.ts), whose live() numbers arrive as the same text.
 */
export function numbers(text: Buffer | null, reuse: Float64Array | undefined): Float64Array {
  if (text === null || text.length === 0) return new Float64Array(0);
  const length = text.length;
  let count = 1;
  for (let i = 0; i < length; i++) if (text[i] === COMMA) count += 1;
  const out = reuse?.length === count ? reuse : new Float64Array(count);
  let k = 0;
  let value = 0;
  for (let i = 0; i < length; i++) {
    const byte = text[i] ?? COMMA;
    if (byte === COMMA) {
      out[k++] = value;
      value = 0;
    } else value = value * 10 + (byte - ZERO);
  }
  out[k] = value;
  return out;
}
