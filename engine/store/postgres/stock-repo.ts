import type { Async } from '../port-types';
import { numbers, type AreaStock, type ItemStockJson, type StockRepo, type StockVersions } from '../stock-repo';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/stock-repo.ts, the live side of a seat map: only numbers, in the order of the primary
 * key (occurrence, item id) — byte order (`COLLATE "C"`), SQLite's BINARY order, whatever the database's locale.
 * SQLite's `CAST(group_concat(…) AS BLOB)` is a `string_agg(… ORDER BY id)` here, read into the same typed
 * array; `json_group_array` is a `string_agg` of JSON values between brackets, the same text ('[]' for none).
 * Reads only: no locking needed.
 */

const AVAILABLE = 'GREATEST(capacity - held - sold - allocated, 0)';
const BY_KEY = 'id COLLATE "C"';
const jsonArray = (value: string): string => `COALESCE('[' || string_agg(${value}, ',' ORDER BY ${BY_KEY}) || ']', '[]')`;

export function createPgStockRepo(q: Queryable): Async<StockRepo> {
  return {
    /**
     * The counters as this transaction will commit them. The stamps of its own stock changes are taken at
     * COMMIT (the deferred trigger inventory_stock_changed, migrations/0016-baseline.sql); a seat map read after
     * releasing expired carts in the same transaction must see them, so the pending stamps are taken now — which
     * holds the clock's row until COMMIT, as the commit would, with only reads left to do — and later changes
     * are deferred again. Without pending changes this takes no lock.
     */
    async versions(): Promise<StockVersions> {
      await q.query('SET CONSTRAINTS inventory_stock_changed IMMEDIATE; SET CONSTRAINTS inventory_stock_changed DEFERRED');
      const { rows } = await q.query<StockVersions>('SELECT catalog, stock FROM stock_clock WHERE id = 1');
      const row = rows[0];
      if (!row) throw new Error('stock_clock has no row');
      return row;
    },
    /** the active inventory item ids of an occurrence, in the order of live() */
    async ids(occurrenceId: string): Promise<string[]> {
      const { rows } = await q.query<{ id: string }>(`SELECT id FROM inventory_items WHERE occurrence_id = $1 AND active = 1 ORDER BY ${BY_KEY}`, [occurrenceId]);
      return rows.map((row) => row.id);
    },
    /** [area id, position] of the active inventory items of an occurrence, in the order of live() */
    async places(occurrenceId: string): Promise<[string, number][]> {
      const { rows } = await q.query<{ area_id: string; position: number }>(`SELECT area_id, position FROM inventory_items
        WHERE occurrence_id = $1 AND active = 1 ORDER BY ${BY_KEY}`, [occurrenceId]);
      return rows.map((row) => [row.area_id, row.position]);
    },
    /** [area id, position, available, held] of the active items whose numbers changed after stock counter `since` */
    async changedPlaces(occurrenceId: string, since: number): Promise<[string, number, number, number][]> {
      const { rows } = await q.query<{ area_id: string; position: number; available: number; held: number }>(`
        SELECT area_id, position, ${AVAILABLE} AS available, held FROM inventory_items
        WHERE occurrence_id = $1 AND active = 1 AND stock_version > $2 ORDER BY ${BY_KEY}`, [occurrenceId, since]);
      return rows.map((row) => [row.area_id, row.position, row.available, row.held]);
    },
    /** available and held of every active item, alternating, in the order of ids(); into `reuse` when it has the length */
    async live(occurrenceId: string, reuse?: Float64Array): Promise<Float64Array> {
      const { rows } = await q.query<{ stock: string | null }>(`
        SELECT string_agg(${AVAILABLE}::text || ',' || held::text, ',' ORDER BY ${BY_KEY}) AS stock
        FROM inventory_items WHERE occurrence_id = $1 AND active = 1`, [occurrenceId]);
      const text = rows[0]?.stock ?? null;
      return numbers(text === null ? null : Buffer.from(text, 'latin1'), reuse);
    },
    /** items whose held, sold or capacity changed after stock counter `since` (-1: every item) */
    async changedSince(occurrenceId: string, since: number): Promise<ItemStockJson> {
      const { rows } = await q.query<ItemStockJson>(`
        SELECT ${jsonArray('to_json(id)::text')} AS ids, ${jsonArray(`${AVAILABLE}::text`)} AS available, ${jsonArray('held::text')} AS held
        FROM inventory_items WHERE occurrence_id = $1 AND active = 1 AND stock_version > $2`, [occurrenceId, since]);
      const row = rows[0];
      if (!row) throw new Error('an aggregate answers one row');
      return row;
    },
    /** every active area in catalog order with the sums over its active items */
    async areas(occurrenceId: string): Promise<AreaStock[]> {
      // one after the other: a transaction's client runs one query at a time anyway
      const sums = await q.query<AreaStock>(`SELECT area_id AS id, SUM(capacity)::bigint AS capacity, SUM(${AVAILABLE})::bigint AS available,
          SUM(held)::bigint AS held
        FROM inventory_items WHERE occurrence_id = $1 AND active = 1 GROUP BY area_id`, [occurrenceId]);
      const ids = await q.query<{ id: string }>('SELECT id FROM areas WHERE occurrence_id = $1 AND active = 1 ORDER BY position', [occurrenceId]);
      const byArea = new Map(sums.rows.map((row) => [row.id, row]));
      return ids.rows.map(({ id }) => byArea.get(id) ?? { id, capacity: 0, available: 0, held: 0 });
    },
  };
}
