import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import type { CatalogDocument } from '../../engine/contract/catalog';
import { createCatalogNames } from '../../engine/store/catalog-names';
import { createCatalogReader } from '../../engine/store/catalog-reader';
import { createCatalogRepo } from '../../engine/store/catalog-repo';
import { createCatalogWriter } from '../../engine/store/catalog-writer';
import { immediate, openDatabase, type Db } from '../../engine/store/db';
import type { Async } from '../../engine/store/port-types';
import { createPgCatalogMemo } from '../../engine/store/postgres/catalog-memo';
import { createPgCatalogNames } from '../../engine/store/postgres/catalog-names';
import { createPgCatalogReader } from '../../engine/store/postgres/catalog-reader';
import { createPgCatalogRepo } from '../../engine/store/postgres/catalog-repo';
import { createPgCatalogWriter } from '../../engine/store/postgres/catalog-writer';
import type { Queryable } from '../../engine/store/postgres/queryable';
import { openPostgres } from '../../engine/store/postgres/connect';
import { createTestDatabase } from '../helpers/postgres';
import { inTransaction } from './pg-repos-a-fixture';
export { inTransaction };

/** A repository of either adapter: awaiting a call works on both. */
export type Either<T> = T | Async<T>;

const sqliteDirs: string[] = [];

/** A migrated SQLite database in a temp dir. */
export function freshSqlite(): Db {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-pg-b-sqlite-'));
  sqliteDirs.push(dir);
  return openDatabase(dir);
}

const pools: pg.Pool[] = [];
/** A fresh database on the run's PostgreSQL cluster (test/helpers/postgres.ts), a copy of its migrated template. */
export async function freshPg(): Promise<pg.Pool> {
  const pool = await openPostgres(await createTestDatabase({ migrated: true }), { max: 8 });
  pools.push(pool);
  return pool;
}

/** Ends every pool freshPg opened, and removes the SQLite temp dirs. */
export async function cleanUp(): Promise<void> {
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
  for (const dir of sqliteDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}


export function importSqlite(db: Db, doc: CatalogDocument, staging = false): void {
  const writer = createCatalogWriter(db);
  if (!staging) return immediate(db, () => writer.write(doc));
  const steps = writer.plan(doc, true);
  let step = steps.next();
  while (!step.done) step = steps.next();
  const plan = step.value;
  immediate(db, () => writer.write(doc, plan));
}

export async function importPg(pool: pg.Pool, doc: CatalogDocument): Promise<void> {
  const steps = await createPgCatalogWriter(pool).plan(doc, true);
  let step = steps.next();
  while (!step.done) step = steps.next();
  const plan = step.value;
  await inTransaction(pool, (tx) => createPgCatalogWriter(tx).write(doc, plan));
}

/** Runs SQL with `?` placeholders on one database. */
export type Exec = (sql: string, values?: unknown[]) => Promise<void>;

export const execSqlite = (db: Db): Exec => async (sql, values = []) => void db.prepare(sql).run(...values);
export const execPg = (q: Queryable): Exec => async (sql, values = []) => {
  let n = 0;
  await q.query(sql.replace(/\?/g, () => `$${++n}`), values);
};

/**
 * A fresh SQLite database and a fresh PostgreSQL one, both with `doc` imported and then `seed` run on each: the
 * start of a parity test, which makes the same calls on both and compares the answers.
 */
export async function seededPair(doc: CatalogDocument, seed: (exec: Exec) => Promise<void>): Promise<{ db: Db; pool: pg.Pool }> {
  const db = freshSqlite();
  const pool = await freshPg();
  importSqlite(db, doc);
  await importPg(pool, doc);
  await seed(execSqlite(db));
  await seed(execPg(pool));
  return { db, pool };
}

const sorted = <V>(map: ReadonlyMap<string, V>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Everything the catalog's readers answer, Maps as sorted entries. */
export async function catalogSnapshot(reader: Either<ReturnType<typeof createCatalogReader>>, names: Either<ReturnType<typeof createCatalogNames>>,
  repo: Either<ReturnType<typeof createCatalogRepo>>, now: number) {
  const occurrences = await repo.allOccurrences();
  const events = await repo.events();
  const locations = await repo.locations();
  const perOccurrence = [];
  for (const { id } of [...occurrences, { id: 'nope' }]) {
    const items = await repo.items(id);
    const options = await repo.options(id);
    const some = [...items.slice(0, 2).map((item) => item.id), ...items.slice(-2).map((item) => item.id), 'nope'];
    perOccurrence.push({
      id, items, options, areas: await repo.areas(id), occurrence: await repo.occurrence(id),
      inventory: sorted(await repo.inventory(id, some)), one: sorted(await repo.inventory(id, some.slice(0, 1))),
      priceOptions: sorted(await repo.priceOptions(id, [...options.map((option) => option.id).reverse(), 'nope'])),
      places: sorted(await names.places(items.slice(0, 3).map((item) => [id, item.id, options[0]?.id ?? 'nope'] as const))),
    });
  }
  const codes = (await reader.vouchers()).map((voucher) => voucher.code);
  return {
    reader: {
      locations: await reader.locations(), rates: await reader.rates(), events: await reader.events(), extras: await reader.extras(),
      occurrences: await reader.occurrences(), areas: await reader.areas(), options: await reader.options(), items: await reader.items(), vouchers: await reader.vouchers(),
    },
    names: {
      names: sorted(await names.names()), timeZones: sorted(await names.timeZones()), banners: sorted(await names.banners()), images: sorted(await names.images()),
      namesOf: sorted(await names.namesOf([['event', '', events[0]?.id ?? 'nope'], ['location', '', 'nope'], ['location', '', locations[0]?.id ?? 'nope']])),
    },
    repo: {
      locations, events, occurrences, perOccurrence,
      facts: sorted(await repo.occurrences([...occurrences.map((o) => o.id).reverse(), 'nope'])),
      location: await Promise.all([...locations.map((l) => l.id), 'nope'].map(async (id) => repo.location(id))),
      extras: await Promise.all([...events.map((e) => e.id), 'nope'].map(async (id) => repo.extras(id))),
      vouchers: await repo.vouchers([...codes].reverse().concat('NOPE')), voucher: await repo.voucher(codes[0] ?? 'NOPE'),
      rates: [await repo.rate('EUR', 'USD', now), await repo.rate('EUR', 'CHF', now)],
    },
  };
}

export const sqliteCatalog = (db: Db, now: number) => catalogSnapshot(createCatalogReader(db), createCatalogNames(db), createCatalogRepo(db), now);
export const pgCatalog = (q: Queryable, now: number) =>
  catalogSnapshot(createPgCatalogReader(q), createPgCatalogNames(q), createPgCatalogRepo(q, createPgCatalogMemo()), now);
