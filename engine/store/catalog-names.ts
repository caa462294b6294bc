import type { NameLanguage } from '../domain/names';
import type { Db } from './db';

/** Translated catalog names and venues' time zones (migration 0009) and pictures (0014), read beside the catalog rows. */
export type NameTable = ReadonlyMap<string, Partial<Record<NameLanguage, string>>>;

export const nameKey = (kind: string, scope: string, id: string) => `${kind}\n${scope}\n${id}`;

/** Where a cart line's place is, for naming it again: its area and seat, active in the catalog or not. */
export interface PlaceRow {
  occurrenceId: string;
  id: string;
  priceOptionId: string;
  areaId: string;
  areaName: string;
  seating: 'general' | 'assigned';
  label: string | null;
  optionName: string | null;
}

type NameRow = { kind: string; scope: string; id: string; names: string };
const parse = (rows: readonly NameRow[]): NameTable =>
  new Map(rows.map((row) => [nameKey(row.kind, row.scope, row.id), JSON.parse(row.names) as Partial<Record<NameLanguage, string>>]));

/** One set of prepared statements per database: the names are read on every cart and order answer. */
const prepared = new WeakMap<Db, ReturnType<typeof prepare>>();

export function createCatalogNames(db: Db): ReturnType<typeof prepare> {
  let names = prepared.get(db);
  if (!names) {
    names = prepare(db);
    prepared.set(db, names);
  }
  return names;
}

function prepare(db: Db) {
  const all = db.prepare<[], NameRow>('SELECT kind, scope, id, names FROM catalog_names');
  // [[kind, scope, id], …] as one JSON parameter; each row found by its primary key
  const some = db.prepare<[string], NameRow>(`SELECT n.kind, n.scope, n.id, n.names FROM json_each(?) AS k
    JOIN catalog_names n ON n.kind = k.value ->> 0 AND n.scope = k.value ->> 1 AND n.id = k.value ->> 2`);
  const places = db.prepare<[string], PlaceRow>(`SELECT i.occurrence_id AS occurrenceId, i.id, k.value ->> 2 AS priceOptionId, i.area_id AS areaId,
      a.name AS areaName, a.seating, i.label, p.name AS optionName
    FROM json_each(?) AS k JOIN inventory_items i ON i.occurrence_id = k.value ->> 0 AND i.id = k.value ->> 1
    JOIN areas a ON a.occurrence_id = i.occurrence_id AND a.id = i.area_id
    LEFT JOIN price_options p ON p.occurrence_id = i.occurrence_id AND p.id = k.value ->> 2`);
  const zones = db.prepare<[], { id: string; timeZone: string }>('SELECT id, time_zone AS timeZone FROM locations WHERE time_zone IS NOT NULL');
  const banners = db.prepare<[], { id: string; url: string }>('SELECT id, banner AS url FROM locations WHERE banner IS NOT NULL');
  const images = db.prepare<[], { id: string; url: string }>('SELECT id, image AS url FROM events WHERE image IS NOT NULL');
  return {
    /** every translation, keyed by nameKey(kind, scope, id) */
    names: (): NameTable => parse(all.all()),
    /** the translations of the names given as [kind, scope, id], keyed by nameKey */
    namesOf: (keys: readonly (readonly [string, string, string])[]): NameTable => (keys.length === 0 ? new Map() : parse(some.all(JSON.stringify(keys)))),
    /** places given as [occurrenceId, inventoryItemId, priceOptionId] with their area and option, keyed by nameKey of the three */
    places: (items: readonly (readonly [string, string, string])[]): ReadonlyMap<string, PlaceRow> =>
      new Map(items.length === 0 ? [] : places.all(JSON.stringify(items)).map((row) => [nameKey(row.occurrenceId, row.id, row.priceOptionId), row])),
    timeZones: (): ReadonlyMap<string, string> => new Map(zones.all().map((row) => [row.id, row.timeZone])),
    /** venues' banners by location id (migration 0014) */
    banners: (): ReadonlyMap<string, string> => new Map(banners.all().map((row) => [row.id, row.url])),
    /** events' pictures by event id (migration 0014) */
    images: (): ReadonlyMap<string, string> => new Map(images.all().map((row) => [row.id, row.url])),
  };
}
