import { immediateWithoutSync, type Db } from './db';
import type { CatalogDocument } from '../contract/catalog';
import { defaultName } from '../domain/names';

/**
 * What a catalog import changes among the inventory items — the bulk of a big catalog, a row per seat.
 * Worked out in steps (a generator that pauses every thousand or so items), so an import can hand the
 * event loop back in between; the write that follows then touches only what differs:
 *   - an occurrence the database holds live: its items are compared with the stored rows (reads
 *     only) and the plan lists the new or changed ones and those the document no longer names;
 *   - an occurrence the database has never seen (with `staging`): its rows — and its event and location if
 *     they are new too — are inserted beforehand INACTIVE, a batch per small transaction. Inactive rows are
 *     invisible to every reader (the writer already keeps rows a catalog dropped that way), so nothing can
 *     sell them; the import's one write transaction then switches them on with a single UPDATE, far
 *     cheaper than inserting them there. Should the import fail or the process die before that, they stay
 *     inactive and a later import of the same occurrence stages what they lack;
 *   - an occurrence stored but inactive (a show an earlier catalog dropped, or the leftovers of an import cut
 *     short), with `staging`: the seats it lacks are staged, changed ones planned, and the write switches on
 *     its rows and turns off again those the document does not list — its existing rows untouched until then.
 * Re-importing a seat map of 100,000 seats with ten changed labels writes ten inventory rows.
 *
 * The plan is valid for the catalog version it was made at (stock_clock.catalog); the writer checks that
 * version inside its transaction and plans afresh, in one go, if another import came in between.
 */

type DocItem = CatalogDocument['events'][number]['occurrences'][number]['areas'][number]['inventoryItems'][number];

export interface PlannedItem {
  readonly occurrenceId: string;
  readonly areaId: string;
  /** its place in the area's list */
  readonly position: number;
  readonly item: DocItem;
}

export interface ItemPlan {
  /** the catalog version this plan was read at */
  readonly catalogVersion: number;
  /** items to insert, or to update and (re)activate */
  readonly upserts: readonly PlannedItem[];
  /** items of occurrences the document names that it no longer lists */
  readonly deactivate: readonly { readonly occurrenceId: string; readonly id: string }[];
  /** occurrences (active until now) the document no longer names: all their items go inactive */
  readonly vanished: readonly string[];
  /** new occurrences whose items were inserted inactive beforehand: the write switches them on */
  readonly staged: readonly string[];
}

interface StoredItem {
  areaId: string;
  label: string | null;
  capacity: number;
  position: number;
}

/** document items compared, or stored ids read, between two pauses */
const STEP = 2_000;
/** items inserted (inactive) per transaction, between two pauses */
const STAGE_BATCH = 1_000;

export function createItemPlanner(db: Db) {
  const version = db.prepare<[], number>('SELECT catalog FROM stock_clock WHERE id = 1').pluck();
  // `active`: 1 — the rows of a live occurrence; -1 — every row, active or not (an occurrence stored inactive)
  const storedItem = db.prepare<[string, string, number], StoredItem>(`SELECT area_id AS areaId, label, capacity, position FROM inventory_items
    WHERE occurrence_id = ? AND id = ? AND active >= ?`);
  // keyset pages over the primary key: no statement stays open across a pause
  const page = db.prepare<[string, number, string, number], string>('SELECT id FROM inventory_items WHERE occurrence_id = ? AND active >= ? AND id > ? ORDER BY id LIMIT ?').pluck();
  const activeOccurrences = db.prepare<[], string>('SELECT id FROM occurrences WHERE active = 1').pluck();
  const stager = createStager(db);

  /**
   * The plan for `doc`, in steps; the generator's return value is the plan. With `staging`, new occurrences
   * are inserted inactive on the way (each batch its own transaction: not inside another one).
   */
  function* plan(doc: CatalogDocument, staging = false): Generator<void, ItemPlan, undefined> {
    const catalogVersion = version.get() ?? 0;
    const upserts: PlannedItem[] = [];
    const deactivate: { occurrenceId: string; id: string }[] = [];
    const staged: string[] = [];
    const named = new Set<string>();
    const stage = stager.session();
    for (const location of staging ? doc.locations : []) stage.location(location);
    for (const event of doc.events) {
      for (const occurrence of event.occurrences) {
        named.add(occurrence.id);
        const stored = staging ? stager.stored(occurrence.id) : 'active';
        if (stored === 'none') {
          yield* stage.occurrence(event, occurrence);
          staged.push(occurrence.id);
          continue;
        }
        // Stored but inactive (dropped by an earlier catalog, or left by an import cut short): its rows are
        // invisible, so the seats it lacks are staged, the changed ones planned, and the write switches on the
        // rest — then turns off again those of its rows the document does not list (`deactivate`). Rows that
        // exist are not touched before the write: orders name them.
        const restaging = stored === 'inactive';
        const rows = restaging ? -1 : 1;
        if (restaging) stage.areas(occurrence);
        // the document's items are looked up one by one; then the stored ids are paged through for those it dropped
        const listed = new Set<string>();
        let compared = 0;
        for (const area of occurrence.areas) {
          for (const [position, item] of area.inventoryItems.entries()) {
            listed.add(item.id);
            const was = storedItem.get(occurrence.id, item.id, rows);
            const same = was && was.areaId === area.id && was.label === (item.label ?? null) && was.capacity === item.capacity && was.position === position;
            if (restaging && !was) stage.item(occurrence.id, area.id, item, position);
            else if (!same) upserts.push({ occurrenceId: occurrence.id, areaId: area.id, position, item });
            if (++compared % STEP === 0) yield;
          }
        }
        if (restaging) staged.push(occurrence.id);
        for (let after = ''; ; ) {
          const ids = page.all(occurrence.id, rows, after, STEP);
          for (const id of ids) if (!listed.has(id)) deactivate.push({ occurrenceId: occurrence.id, id });
          yield;
          const last = ids.at(-1);
          if (ids.length < STEP || last === undefined) break;
          after = last;
        }
      }
    }
    // the last rows staged: committed before the plan is done, so the write finds every one
    if (staging) yield* stage.flush();
    const vanished = activeOccurrences.all().filter((id) => !named.has(id));
    return { catalogVersion, upserts, deactivate, vanished, staged };
  }

  /** the plan in one go (inside a transaction, or where nothing else runs) */
  function planNow(doc: CatalogDocument): ItemPlan {
    const steps = plan(doc);
    let step = steps.next();
    while (!step.done) step = steps.next();
    return step.value;
  }

  return { plan, planNow, catalogVersion: (): number => version.get() ?? 0 };
}

type DocEvent = CatalogDocument['events'][number];
type DocOccurrence = DocEvent['occurrences'][number];

/**
 * Inserts the rows of new occurrences inactive (see above). Rows are gathered — a location, an occurrence
 * with its event and areas, its items a slice at a time — and committed together, some STAGE_BATCH rows per
 * transaction: a season of thousands of small shows must not pay a commit (a wait for the disk) per show,
 * nor an arena's seat map hold the write lock for long. Locations and events that exist already are left alone.
 */
function createStager(db: Db) {
  const occurrenceActive = db.prepare<[string], number>('SELECT active FROM occurrences WHERE id = ?').pluck();
  const location = db.prepare<[string, string, string, string | null]>(`INSERT INTO locations (id, name, currencies, position, time_zone, active)
    VALUES (?, ?, ?, 0, ?, 0) ON CONFLICT DO NOTHING`);
  const event = db.prepare<[string, string, string, string]>(`INSERT INTO events (id, name, location_id, kind, position, active)
    VALUES (?, ?, ?, ?, 0, 0) ON CONFLICT DO NOTHING`);
  const occurrence = db.prepare<[string, string, string]>(`INSERT INTO occurrences (id, event_id, starts_at, on_sale, position, active)
    VALUES (?, ?, ?, 0, 0, 0)`);
  const area = db.prepare<[string, string, string, string, number]>(`INSERT INTO areas (occurrence_id, id, name, seating, position, active)
    VALUES (?, ?, ?, ?, ?, 0) ON CONFLICT DO NOTHING`);
  const item = db.prepare<[string, string, string, string | null, number, number]>(`INSERT INTO inventory_items (occurrence_id, id, area_id, label, capacity, position, active)
    VALUES (?, ?, ?, ?, ?, ?, 0)`);

  // Staged rows are inactive and disposable, so their batches commit without waiting for the disk; the
  // import's answer waits for the disk (FULL, or group commit's sync), which makes everything before it durable.
  /** what one plan stages: its own gathered rows, so nothing of a failed plan is left for the next one */
  const session = () => {
    let pending: (() => void)[] = [];
    let rows = 0;
    const commit = (): void => {
      const batch = pending;
      pending = [];
      rows = 0;
      if (batch.length > 0) immediateWithoutSync(db, () => batch.forEach((work) => work()));
    };
    /** gathers `work`; true when that filled a batch, which is then committed */
    const add = (count: number, work: () => void): boolean => {
      pending.push(work);
      rows += count;
      if (rows < STAGE_BATCH) return false;
      commit();
      return true;
    };

    return {
      location(doc: CatalogDocument['locations'][number]): void {
        add(1, () => location.run(doc.id, defaultName(doc.name), JSON.stringify(doc.currencies), doc.timeZone ?? null));
      },
      *occurrence(ofEvent: DocEvent, doc: DocOccurrence): Generator<void, void, undefined> {
        add(1 + doc.areas.length, () => {
          event.run(ofEvent.id, defaultName(ofEvent.name), ofEvent.locationId, ofEvent.kind);
          occurrence.run(doc.id, ofEvent.id, doc.startsAt);
          doc.areas.forEach((each, a) => area.run(doc.id, each.id, defaultName(each.name), each.seating, a));
        });
        for (const each of doc.areas) {
          for (let from = 0; from < each.inventoryItems.length; from += STAGE_BATCH) {
            const slice = each.inventoryItems.slice(from, from + STAGE_BATCH);
            const first = from;
            if (add(slice.length, () => slice.forEach((one, i) => item.run(doc.id, one.id, each.id, one.label ?? null, one.capacity, first + i)))) yield;
          }
        }
        yield;
      },
      /** the areas of an occurrence stored inactive that it lacks, inactive */
      areas(doc: DocOccurrence): void {
        add(doc.areas.length, () => doc.areas.forEach((each, a) => area.run(doc.id, each.id, defaultName(each.name), each.seating, a)));
      },
      /** a seat an occurrence stored inactive lacks, inactive (committed with its batch) */
      item(occurrenceId: string, areaId: string, doc: DocOccurrence['areas'][number]['inventoryItems'][number], position: number): void {
        add(1, () => item.run(occurrenceId, doc.id, areaId, doc.label ?? null, doc.capacity, position));
      },
      /** commits what is gathered */
      *flush(): Generator<void, void, undefined> {
        commit();
        yield;
      },
    };
  };

  return {
    /** whether an occurrence is stored, and live (a document names an occurrence once, so one gathered is not asked again) */
    stored(id: string): 'none' | 'inactive' | 'active' {
      const active = occurrenceActive.get(id);
      return active === undefined ? 'none' : active === 1 ? 'active' : 'inactive';
    },
    session,
  };
}
