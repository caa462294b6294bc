import type { NameLanguage } from '../domain/names';
import type { Db } from './db';

/** Translated catalog names and venues' time zones (migration 0009), read beside the catalog rows. */
export type NameTable = ReadonlyMap<string, Partial<Record<NameLanguage, string>>>;

export const nameKey = (kind: string, scope: string, id: string) => `${kind}\n${scope}\n${id}`;

export function createCatalogNames(db: Db) {
  const all = db.prepare<[], { kind: string; scope: string; id: string; names: string }>('SELECT kind, scope, id, names FROM catalog_names');
  const zones = db.prepare<[], { id: string; timeZone: string }>('SELECT id, time_zone AS timeZone FROM locations WHERE time_zone IS NOT NULL');
  return {
    /** every translation, keyed by nameKey(kind, scope, id) */
    names(): NameTable {
      return new Map(all.all().map((row) => [nameKey(row.kind, row.scope, row.id), JSON.parse(row.names) as Partial<Record<NameLanguage, string>>]));
    },
    timeZones: (): ReadonlyMap<string, string> => new Map(zones.all().map((row) => [row.id, row.timeZone])),
  };
}
