import type { Async } from '../port-types';
import type { createItemPlanner, ItemPlan, PlannedItem } from '../catalog-item-plan';
import type { CatalogDocument } from '../../contract/catalog';
import type { Queryable } from './queryable';

type ItemPlanner = ReturnType<typeof createItemPlanner>;

interface StoredItem { occurrenceId: string; id: string; areaId: string; label: string | null; capacity: number; position: number }

/**
 * What a catalog import changes among the inventory items (store/catalog-item-plan.ts), on PostgreSQL: the
 * stored rows of the document's occurrences are read in ONE statement and compared in memory, so the plan costs
 * one round trip whatever the size of the seat maps (a per-item look-up, as SQLite does in-process, would be a
 * round trip per seat).
 *
 * No staging: SQLite inserts new occurrences' rows inactive in small transactions beforehand because its one
 * writer lock would otherwise stop every sale for the length of the insert. PostgreSQL's writers lock rows, not
 * the database, so the import's one transaction inserts them itself (in a few multi-row statements, see
 * postgres/catalog-writer.ts) while sales go on; `plan(doc, staging)` therefore ignores `staging`, answers a plan
 * whose `staged` is empty (new and inactive occurrences' rows are `upserts`), and is a generator already finished,
 * so importCatalogInSlices' stepping works unchanged. A plan is valid for the catalog version it was read at;
 * the writer checks it under its lock.
 */
export function createPgItemPlanner(q: Queryable): Async<ItemPlanner> {
  const catalogVersion = async (): Promise<number> =>
    Number((await q.query<{ catalog: number }>('SELECT catalog FROM stock_clock WHERE id = 1')).rows[0]?.catalog ?? 0);

  async function planNow(doc: CatalogDocument): Promise<ItemPlan> {
    const version = await catalogVersion();
    const occurrences = doc.events.flatMap((event) => event.occurrences.map((occurrence) => occurrence.id));
    // active rows only, as SQLite's plan without staging: an inactive row the document lists is an upsert (switched on)
    const stored = (await q.query<StoredItem>(`SELECT occurrence_id AS "occurrenceId", id, area_id AS "areaId", label, capacity, position
      FROM inventory_items WHERE occurrence_id = ANY($1::text[]) AND active = 1 ORDER BY occurrence_id COLLATE "C", id COLLATE "C"`, [occurrences])).rows;
    const byOccurrence = new Map<string, Map<string, StoredItem>>();
    for (const row of stored) {
      let items = byOccurrence.get(row.occurrenceId);
      if (!items) byOccurrence.set(row.occurrenceId, (items = new Map()));
      items.set(row.id, row);
    }
    const upserts: PlannedItem[] = [];
    const deactivate: { occurrenceId: string; id: string }[] = [];
    for (const event of doc.events) {
      for (const occurrence of event.occurrences) {
        const items = byOccurrence.get(occurrence.id) ?? new Map<string, StoredItem>();
        const listed = new Set<string>();
        for (const area of occurrence.areas) {
          for (const [position, item] of area.inventoryItems.entries()) {
            listed.add(item.id);
            const was = items.get(item.id);
            const same = was && was.areaId === area.id && was.label === (item.label ?? null) && was.capacity === item.capacity && was.position === position;
            if (!same) upserts.push({ occurrenceId: occurrence.id, areaId: area.id, position, item });
          }
        }
        // in primary-key order, as SQLite pages through them
        for (const id of items.keys()) if (!listed.has(id)) deactivate.push({ occurrenceId: occurrence.id, id });
      }
    }
    const named = new Set(occurrences);
    const vanished = (await q.query<{ id: string }>('SELECT id FROM occurrences WHERE active = 1')).rows.map((row) => row.id).filter((id) => !named.has(id));
    return { catalogVersion: version, upserts, deactivate, vanished, staged: [] };
  }

  return {
    plan: async (doc) => {
      const made = await planNow(doc);
      // eslint-disable-next-line require-yield -- finished at once: the work above ran on the server, the event loop free meanwhile
      return (function* steps(): Generator<void, ItemPlan, undefined> {
        return made;
      })();
    },
    planNow,
    catalogVersion,
  };
}
