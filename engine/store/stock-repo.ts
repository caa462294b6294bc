import { availableSql } from './catalog-repo';
import type { Db } from './db';

/** The database's catalog and stock counters (migration 0012). */
export interface StockVersions { readonly catalog: number; readonly stock: number }

/** [available, held] of one inventory item */
export type LiveStock = [available: number, held: number];
/** [inventoryItemId, available, held] */
export type ItemStock = [id: string, available: number, held: number];
export interface AreaStock { readonly id: string; readonly capacity: number; readonly available: number; readonly held: number }

/**
 * The live side of a seat map: only numbers, in the order of the primary key (occurrence, item id), so SQLite
 * walks the table without sorting. A prepared seat map (use-cases/seat-map.ts) knows where each row goes.
 */
export function createStockRepo(db: Db) {
  const versions = db.prepare<[], StockVersions>('SELECT catalog, stock FROM stock_clock WHERE id = 1');
  const ids = db.prepare<[string], string>('SELECT id FROM inventory_items WHERE occurrence_id = ? AND active = 1 ORDER BY id').pluck();
  const live = db.prepare<[string], LiveStock>(`SELECT ${availableSql()}, held FROM inventory_items WHERE occurrence_id = ? AND active = 1 ORDER BY id`).raw();
  const changed = db.prepare<[string, number], ItemStock>(`
    SELECT id, ${availableSql()}, held FROM inventory_items WHERE occurrence_id = ? AND active = 1 AND stock_version > ? ORDER BY id`).raw();
  const areas = db.prepare<[string], AreaStock>(`
    SELECT a.id, COALESCE(SUM(i.capacity), 0) AS capacity, COALESCE(SUM(${availableSql('i.')}), 0) AS available,
           COALESCE(SUM(i.held), 0) AS held
    FROM areas a LEFT JOIN inventory_items i ON i.occurrence_id = a.occurrence_id AND i.area_id = a.id AND i.active = 1
    WHERE a.occurrence_id = ? AND a.active = 1 GROUP BY a.id ORDER BY a.position`);
  return {
    versions(): StockVersions {
      const row = versions.get();
      if (!row) throw new Error('stock_clock has no row (migration 0012)');
      return row;
    },
    /** the active inventory item ids of an occurrence, in the order of live() */
    ids: (occurrenceId: string): string[] => ids.all(occurrenceId),
    live: (occurrenceId: string): LiveStock[] => live.all(occurrenceId),
    /** items whose held, sold or capacity changed after stock counter `since` */
    changedSince: (occurrenceId: string, since: number): ItemStock[] => changed.all(occurrenceId, since),
    areas: (occurrenceId: string): AreaStock[] => areas.all(occurrenceId),
  };
}

export type StockRepo = ReturnType<typeof createStockRepo>;
