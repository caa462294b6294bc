import type { Async } from '../port-types';
import { nameKey, type createCatalogNames, type NameTable, type PlaceRow } from '../catalog-names';
import type { NameLanguage } from '../../domain/names';
import type { Queryable } from './queryable';

type CatalogNames = ReturnType<typeof createCatalogNames>;
type NameRow = { kind: string; scope: string; id: string; names: string };

const parse = (rows: readonly NameRow[]): NameTable =>
  new Map(rows.map((row) => [nameKey(row.kind, row.scope, row.id), JSON.parse(row.names) as Partial<Record<NameLanguage, string>>]));

/** [[a, b, c], …] as three text[] parameters, for unnest(...) WITH ORDINALITY */
const columns = (keys: readonly (readonly [string, string, string])[]) => [keys.map((key) => key[0]), keys.map((key) => key[1]), keys.map((key) => key[2])];

/**
 * Translated catalog names, venues' time zones and pictures (store/catalog-names.ts) on PostgreSQL. Where SQLite
 * passes [[kind, scope, id], …] as one JSON parameter walked with json_each, the keys travel here as three
 * parallel text[] unnested WITH ORDINALITY, and rows come back in the order of the keys (json_each's order).
 * Reads only. Nothing is prepared ahead, so the SQLite version's per-database cache has no twin here.
 */
export function createPgCatalogNames(q: Queryable): Async<CatalogNames> {
  const rows = async <R extends object>(sql: string, values: unknown[] = []) => (await q.query<R>(sql, values)).rows;
  return {
    names: async () => parse(await rows<NameRow>('SELECT kind, scope, id, names FROM catalog_names')),
    namesOf: async (keys) => (keys.length === 0 ? new Map() : parse(await rows<NameRow>(`SELECT n.kind, n.scope, n.id, n.names
      FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS k(kind, scope, id, at)
      JOIN catalog_names n ON n.kind = k.kind AND n.scope = k.scope AND n.id = k.id ORDER BY k.at`, columns(keys)))),
    places: async (items) => new Map(items.length === 0 ? [] : (await rows<PlaceRow>(`SELECT i.occurrence_id AS "occurrenceId", i.id,
        k.option AS "priceOptionId", i.area_id AS "areaId", a.name AS "areaName", a.seating, i.label, p.name AS "optionName"
      FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS k(occurrence, item, option, at)
      JOIN inventory_items i ON i.occurrence_id = k.occurrence AND i.id = k.item
      JOIN areas a ON a.occurrence_id = i.occurrence_id AND a.id = i.area_id
      LEFT JOIN price_options p ON p.occurrence_id = i.occurrence_id AND p.id = k.option ORDER BY k.at`, columns(items)))
      .map((row) => [nameKey(row.occurrenceId, row.id, row.priceOptionId), row])),
    timeZones: async () => new Map((await rows<{ id: string; timeZone: string }>('SELECT id, time_zone AS "timeZone" FROM locations WHERE time_zone IS NOT NULL'))
      .map((row) => [row.id, row.timeZone])),
    banners: async () => new Map((await rows<{ id: string; url: string }>('SELECT id, banner AS url FROM locations WHERE banner IS NOT NULL'))
      .map((row) => [row.id, row.url])),
    images: async () => new Map((await rows<{ id: string; url: string }>('SELECT id, image AS url FROM events WHERE image IS NOT NULL'))
      .map((row) => [row.id, row.url])),
  };
}
