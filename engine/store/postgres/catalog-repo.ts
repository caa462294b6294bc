import type { Async } from '../port-types';
import type { AreaRow, CatalogRepo, EventRow, ExtraRow, ItemRow, LocationRow, OccurrenceRow, OptionRow, VoucherRow } from '../catalog-repo';
import type { InventoryFacts, OccurrenceFacts, PriceOptionFacts } from '../../domain/cart-rules';
import { createPgCatalogMemo, pgCatalogSession, pgMemoTable, type PgCatalogMemo } from './catalog-memo';
import type { Queryable } from './queryable';

/**
 * Reads of the catalog (store/catalog-repo.ts) on PostgreSQL. Lists of ids travel as one text[] parameter
 * (`= ANY($n)`, where SQLite used json_each); SQLite's scalar MAX(x, 0) is GREATEST(x, 0). Facts that do not
 * change within a catalog version are kept in `memo` (postgres/catalog-memo.ts): pass the store's one memo and
 * build the repository per transaction, so each transaction reads the catalog version once. Look-ups of several
 * ids not kept yet are one statement. Reads only: safe under any concurrency, at READ COMMITTED each statement
 * sees what was committed when it began.
 */

/** What is left for everyone (contract §10), PostgreSQL's spelling of store/catalog-repo.ts's availableSql. */
export const pgAvailableSql = (table = '') => `GREATEST(${table}capacity - ${table}held - ${table}sold - ${table}allocated, 0)`;

interface RawLocation { id: string; name: string; currencies: string }
interface Tables {
  occurrence: Map<string, OccurrenceFacts>;
  option: Map<string, PriceOptionFacts>;
  location: Map<string, LocationRow>;
  extras: Map<string, readonly ExtraRow[]>;
}

const parseLocation = (row: RawLocation): LocationRow => ({ ...row, currencies: JSON.parse(row.currencies) as string[] });
const VOUCHER = `SELECT code, percent_off AS "percentOff", amount_off AS "amountOff", amount_off_currency AS "amountOffCurrency",
  valid_until AS "validUntil", max_redemptions AS "maxRedemptions", redeemed, event_ids AS "eventIds", active, combinable FROM vouchers`;
const INVENTORY = `SELECT i.id, i.area_id AS "areaId", a.name AS "areaName", a.seating, i.label, ${pgAvailableSql('i.')} AS available
  FROM inventory_items i JOIN areas a ON a.occurrence_id = i.occurrence_id AND a.id = i.area_id`;

const tablesOf = new WeakMap<PgCatalogMemo, Tables>();
function tables(memo: PgCatalogMemo): Tables {
  let found = tablesOf.get(memo);
  if (!found) {
    found = { occurrence: pgMemoTable(memo), option: pgMemoTable(memo), location: pgMemoTable(memo), extras: pgMemoTable(memo) };
    tablesOf.set(memo, found);
  }
  return found;
}

export function createPgCatalogRepo(q: Queryable, memo: PgCatalogMemo = createPgCatalogMemo()): Async<CatalogRepo> {
  const rows = async <R extends object>(sql: string, values: unknown[] = []) => (await q.query<R>(sql, values)).rows;
  const session = pgCatalogSession(memo, q);
  const kept = tables(memo);
  const keptOccurrence = session.kept(kept.occurrence);
  const keptOption = session.kept(kept.option);
  const keptLocation = session.kept(kept.location);
  const keptExtras = session.kept(kept.extras);

  const readOccurrences = async (ids: readonly string[]) => new Map((await rows<Omit<OccurrenceFacts, 'onSale'> & { onSale: number }>(`
    SELECT o.id, o.event_id AS "eventId", e.name AS "eventName", e.kind, o.on_sale AS "onSale", e.location_id AS "locationId"
    FROM occurrences o JOIN events e ON e.id = o.event_id
    WHERE o.id = ANY($1::text[]) AND o.active = 1 AND e.active = 1`, [ids])).map((row) => [row.id, Object.freeze({ ...row, onSale: row.onSale === 1 })]));
  const readOptions = async (occurrenceId: string, ids: readonly string[]) => new Map((await rows<PriceOptionFacts>(`
    SELECT id, area_id AS "areaId", name, price FROM price_options WHERE occurrence_id = $1 AND id = ANY($2::text[]) AND active = 1`,
  [occurrenceId, ids])).map((row) => [row.id, Object.freeze(row)]));
  const readLocation = async (id: string) => (await rows<RawLocation>('SELECT id, name, currencies FROM locations WHERE id = $1', [id]))[0];

  return {
    async occurrences(ids) {
      await session.ready(); // the version before the batch read: see postgres/catalog-memo.ts
      // an id PostgreSQL's text cannot hold (U+0000) names no occurrence
      const missing = [...new Set(ids.filter((id) => !kept.occurrence.has(id) && !id.includes('\0')))];
      const loaded = missing.length > 0 ? await readOccurrences(missing) : new Map<string, OccurrenceFacts>();
      const asked = new Set(missing);
      const found = new Map<string, OccurrenceFacts>();
      for (const id of ids) {
        if (id.includes('\0')) continue;
        const facts = await keptOccurrence(id, async () => (asked.has(id) ? loaded.get(id) : (await readOccurrences([id])).get(id)));
        if (facts) found.set(id, facts);
      }
      return found;
    },
    async inventory(occurrenceId, ids) {
      const [first] = ids;
      const one = first !== undefined && ids.every((id) => id === first);
      const found = one
        ? await rows<InventoryFacts>(`${INVENTORY} WHERE i.occurrence_id = $1 AND i.id = $2 AND i.active = 1 AND a.active = 1`, [occurrenceId, first])
        : await rows<InventoryFacts>(`${INVENTORY} WHERE i.occurrence_id = $1 AND i.id = ANY($2::text[]) AND i.active = 1 AND a.active = 1
            ORDER BY i.id COLLATE "C"`, [occurrenceId, [...ids]]);
      return new Map(found.map((row) => [row.id, row]));
    },
    async priceOptions(occurrenceId, ids) {
      const key = (id: string) => `${occurrenceId}\n${id}`;
      await session.ready();
      const missing = [...new Set(ids.filter((id) => !kept.option.has(key(id))))];
      const loaded = missing.length > 0 ? await readOptions(occurrenceId, missing) : new Map<string, PriceOptionFacts>();
      const asked = new Set(missing);
      const found = new Map<string, PriceOptionFacts>();
      for (const id of ids) {
        const facts = await keptOption(key(id), async () => (asked.has(id) ? loaded.get(id) : (await readOptions(occurrenceId, [id])).get(id)));
        if (facts) found.set(id, facts);
      }
      return found;
    },
    location: (id) => keptLocation(id, async () => {
      const row = await readLocation(id);
      return row && Object.freeze(parseLocation(row));
    }),
    locations: async () => (await rows<RawLocation>('SELECT id, name, currencies FROM locations WHERE active = 1 ORDER BY position')).map(parseLocation),
    rate: async (from, to, now) => (await rows<{ rate: string }>(
      'SELECT rate FROM exchange_rates WHERE from_currency = $1 AND to_currency = $2 AND (valid_until IS NULL OR valid_until > $3)', [from, to, now]))[0]?.rate,
    extras: async (eventId) => (await keptExtras(eventId, async () => Object.freeze((await rows<ExtraRow>(
      'SELECT id, name, price, max_quantity AS "maxQuantity" FROM extras WHERE event_id = $1 AND active = 1 ORDER BY position', [eventId]))
      .map((row) => Object.freeze(row))))) ?? [],
    voucher: async (code) => (await rows<VoucherRow>(`${VOUCHER} WHERE code = $1`, [code]))[0],
    vouchers: (codes) => rows<VoucherRow>(`${VOUCHER} WHERE code = ANY($1::text[]) ORDER BY code COLLATE "C"`, [[...codes]]),
    events: () => rows<EventRow>('SELECT id, name, location_id AS "locationId", kind FROM events WHERE active = 1 ORDER BY position'),
    allOccurrences: () => rows<OccurrenceRow>(`SELECT id, event_id AS "eventId", starts_at AS "startsAt", on_sale AS "onSale"
      FROM occurrences WHERE active = 1 ORDER BY event_id COLLATE "C", position`),
    occurrence: async (id) => (await rows<OccurrenceRow & { locationId: string }>(`
      SELECT o.id, o.event_id AS "eventId", o.starts_at AS "startsAt", o.on_sale AS "onSale", e.location_id AS "locationId"
      FROM occurrences o JOIN events e ON e.id = o.event_id WHERE o.id = $1 AND o.active = 1 AND e.active = 1`, [id]))[0],
    areas: (occurrenceId) => rows<AreaRow>('SELECT id, name, seating FROM areas WHERE occurrence_id = $1 AND active = 1 ORDER BY position', [occurrenceId]),
    options: (occurrenceId) => rows<OptionRow>(`SELECT id, area_id AS "areaId", name, price FROM price_options
      WHERE occurrence_id = $1 AND active = 1 ORDER BY position, id COLLATE "C"`, [occurrenceId]),
    items: (occurrenceId) => rows<ItemRow>(`SELECT id, area_id AS "areaId", label, capacity, ${pgAvailableSql()} AS available, held
      FROM inventory_items WHERE occurrence_id = $1 AND active = 1 ORDER BY position, id COLLATE "C"`, [occurrenceId]),
  };
}
