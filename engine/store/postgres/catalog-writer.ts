import type { Async } from '../port-types';
import { voucherRow, type createCatalogWriter } from '../catalog-writer';
import type { ItemPlan } from '../catalog-item-plan';
import type { CatalogDocument } from '../../contract/catalog';
import { defaultName, translations, type Translated } from '../../domain/names';
import { createPgItemPlanner } from './catalog-item-plan';
import { pgForgetCatalogFacts, type PgCatalogMemo } from './catalog-memo';
import type { Queryable } from './queryable';

type CatalogWriter = ReturnType<typeof createCatalogWriter>;
type Row = readonly unknown[];

/** the advisory lock of the catalog write: the bytes of "KassaCat" as one signed 64-bit key, a string (past 2^53) */
export const CATALOG_LOCK_KEY = '5431749564975767924';

/** rows per INSERT … SELECT FROM unnest(…): a 100,000-seat map is ten statements */
const CHUNK = 10_000;

/**
 * Writes a checked catalog document (store/catalog-writer.ts) on PostgreSQL, on the given Queryable: the caller
 * runs it inside ONE transaction (a transaction-level advisory lock is useless outside one). The same rows end up
 * written as on SQLite — upserted by id, rows the document no longer names marked inactive — but each table is
 * written by a few multi-row statements: the rows travel as one array per column and `INSERT … SELECT FROM
 * unnest(…) ON CONFLICT … DO UPDATE` writes up to CHUNK of them per round trip (rows repeating a key within one
 * statement are dropped but the last, as SQLite's row-by-row upserts would leave them).
 *
 * Concurrency: the write first takes `pg_advisory_xact_lock(CATALOG_LOCK_KEY)`, held to the end of its transaction, so two imports on two
 * processes run one after the other; under that lock it reads the catalog version and, if another import moved it
 * since `planned` was made, plans again (as SQLite does). So two imports at once end with one whole catalog (the
 * later one's), never a mix. The version is bumped last, which keeps the stock_clock row locked for as short a
 * time as possible; the whole write commits at once, so no reader sees it half done either way.
 */
export function createPgCatalogWriter(q: Queryable, memo?: PgCatalogMemo): Async<CatalogWriter> {
  const planner = createPgItemPlanner(q);
  const forget = () => memo && pgForgetCatalogFacts(memo);
  const run = (sql: string, values: unknown[] = []) => q.query(sql, values);

  /** an upsert of rows given as tuples in `columns` order, the first `keys` of them the conflict key */
  const upsert = (table: string, columns: readonly (readonly [string, string])[], keys: number, activate: boolean) => {
    const names = columns.map(([name]) => name);
    const set = [...names.slice(keys).map((name) => `${name} = excluded.${name}`), ...(activate ? ['active = 1'] : [])].join(', ');
    const sql = `INSERT INTO ${table} (${names.join(', ')}) SELECT * FROM unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
      ON CONFLICT (${names.slice(0, keys).join(', ')}) DO UPDATE SET ${set}`;
    return async (rows: readonly Row[]): Promise<void> => {
      const last = new Map<string, Row>();
      for (const row of rows) last.set(row.slice(0, keys).join('\n'), row);
      const unique = [...last.values()];
      for (let from = 0; from < unique.length; from += CHUNK) {
        const chunk = unique.slice(from, from + CHUNK);
        await run(sql, columns.map((_, c) => chunk.map((row) => row[c] ?? null)));
      }
    };
  };
  const text = (name: string) => [name, 'text'] as const;
  const int = (name: string) => [name, 'integer'] as const;
  const big = (name: string) => [name, 'bigint'] as const;
  const locations = upsert('locations', [text('id'), text('name'), text('currencies'), int('position'), text('time_zone'), text('banner')], 1, true);
  const names = upsert('catalog_names', [text('kind'), text('scope'), text('id'), text('names')], 3, false);
  const rates = upsert('exchange_rates', [text('from_currency'), text('to_currency'), text('rate'), big('valid_until')], 2, false);
  const events = upsert('events', [text('id'), text('name'), text('location_id'), text('kind'), int('position'), text('image')], 1, true);
  const extras = upsert('extras', [text('event_id'), text('id'), text('name'), big('price'), int('max_quantity'), int('position')], 2, true);
  const occurrences = upsert('occurrences', [text('id'), text('event_id'), text('starts_at'), int('on_sale'), int('position')], 1, true);
  const areas = upsert('areas', [text('occurrence_id'), text('id'), text('name'), text('seating'), int('position')], 2, true);
  const options = upsert('price_options', [text('occurrence_id'), text('id'), text('area_id'), text('name'), big('price'), int('position')], 2, true);
  const items = upsert('inventory_items', [text('occurrence_id'), text('id'), text('area_id'), text('label'), int('capacity'), int('position')], 2, true);
  const vouchers = upsert('vouchers', [text('code'), text('percent_off'), big('amount_off'), text('amount_off_currency'), big('valid_until'),
    int('max_redemptions'), text('event_ids'), int('combinable')], 1, true);

  const epoch = (iso: string | undefined): number | null => (iso === undefined ? null : Date.parse(iso));

  async function write(doc: CatalogDocument, planned?: ItemPlan): Promise<void> {
    await run('SELECT pg_advisory_xact_lock($1::bigint)', [CATALOG_LOCK_KEY]);
    // read under the lock: a plan made at an older version is made again
    const plan = planned && planned.catalogVersion === (await planner.catalogVersion()) ? planned : await planner.planNow(doc);
    forget();
    for (const table of ['locations', 'events', 'extras', 'occurrences', 'areas', 'price_options', 'vouchers']) await run(`UPDATE ${table} SET active = 0 WHERE active = 1`);
    await run('DELETE FROM exchange_rates');
    await run('DELETE FROM catalog_names');

    const nameRows: Row[] = [];
    /** the default name for the row; the translations, if any, into catalog_names */
    const named = (kind: string, scope: string, id: string, name: Translated): string => {
      const all = translations(name);
      if (all) nameRows.push([kind, scope, id, JSON.stringify(all)]);
      return defaultName(name);
    };
    const locationRows = doc.locations.map((location, i): Row =>
      [location.id, named('location', '', location.id, location.name), JSON.stringify(location.currencies), i, location.timeZone ?? null, location.banner ?? null]);
    const eventRows: Row[] = [];
    const extraRows: Row[] = [];
    const occurrenceRows: Row[] = [];
    const areaRows: Row[] = [];
    const optionRows: Row[] = [];
    doc.events.forEach((event, e) => {
      eventRows.push([event.id, named('event', '', event.id, event.name), event.locationId, event.kind, e, event.image ?? null]);
      event.extras?.forEach((extra, x) =>
        extraRows.push([event.id, extra.id, named('extra', event.id, extra.id, extra.name), extra.price.amount, extra.maxQuantity ?? null, x]));
      event.occurrences.forEach((occurrence, o) => {
        // A gift card's occurrence is always on sale (contract §2).
        occurrenceRows.push([occurrence.id, event.id, occurrence.startsAt, event.kind === 'giftCard' || occurrence.onSale ? 1 : 0, o]);
        occurrence.areas.forEach((area, a) => {
          areaRows.push([occurrence.id, area.id, named('area', occurrence.id, area.id, area.name), area.seating, a]);
          area.priceOptions.forEach((option, p) =>
            optionRows.push([occurrence.id, option.id, area.id, named('priceOption', occurrence.id, option.id, option.name), option.price.amount, p]));
        });
      });
    });
    // parents before children: foreign keys are checked statement by statement
    await locations(locationRows);
    await names(nameRows);
    await rates((doc.exchangeRates ?? []).map((rate) => [rate.from, rate.to, rate.rate, epoch(rate.validUntil)]));
    await events(eventRows);
    await extras(extraRows);
    await occurrences(occurrenceRows);
    await areas(areaRows);
    await options(optionRows);
    await items(plan.upserts.map(({ occurrenceId, areaId, position, item }) => [occurrenceId, item.id, areaId, item.label ?? null, item.capacity, position]));
    // staged rows on first: an occurrence stored inactive had rows the document dropped, turned off again next
    if (plan.staged.length > 0) await run('UPDATE inventory_items SET active = 1 WHERE occurrence_id = ANY($1::text[]) AND active = 0', [plan.staged]);
    if (plan.deactivate.length > 0) {
      await run(`UPDATE inventory_items AS i SET active = 0 FROM unnest($1::text[], $2::text[]) AS d(occurrence_id, id)
        WHERE i.occurrence_id = d.occurrence_id AND i.id = d.id AND i.active = 1`, [plan.deactivate.map((d) => d.occurrenceId), plan.deactivate.map((d) => d.id)]);
    }
    if (plan.vanished.length > 0) await run('UPDATE inventory_items SET active = 0 WHERE occurrence_id = ANY($1::text[]) AND active = 1', [plan.vanished]);
    await vouchers((doc.vouchers ?? []).map(voucherRow));
    // every import is a new catalog version: prepared seat maps and kept facts are rebuilt on it
    await run('UPDATE stock_clock SET catalog = catalog + 1 WHERE id = 1');
    forget();
  }

  return { write, plan: planner.plan };
}
