import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/db';
import { openPostgres, redactUrl } from '../../engine/store/postgres/connect';
import { migratePostgres } from '../../engine/store/postgres/migrate';
import { createTestDatabase, postgresAvailable, postgresSuite } from '../helpers/postgres';
import { postgresShape, sqliteShape, type SchemaShape } from './schema-shape';

const pools: pg.Pool[] = [];
/** the versions of engine/store/postgres/migrations (0016, the baseline, and each one after it) */
const VERSIONS = readdirSync(join(import.meta.dirname, '../../engine/store/postgres/migrations'))
  .filter((name) => /^\d{4}-.+\.sql$/.test(name)).sort().map((name) => Number(name.slice(0, 4)));
const NEWEST = VERSIONS.at(-1);
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

/** a child process that opens `url` with openPostgres once told to go */
function startChild(url: string): { ready: Promise<void>; go: () => void; answer: Promise<unknown> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'postgres-open-child.ts'), url], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    if (output.startsWith('ready\n')) markReady();
  });
  const answer = once(child, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`child exited with ${String(code)}: ${output}`);
    return JSON.parse(output.slice('ready\n'.length));
  });
  // a child that dies while loading fails the test with its output rather than leave it waiting
  const readyOrDead = Promise.race([ready, answer.then(() => Promise.reject(new Error(`child ended before it was ready: ${output}`)))]);
  return { ready: readyOrDead, go: () => child.stdin.write('go\n'), answer };
}

/**
 * SQLite's implicit rowid of `orders`, which the engine reads (order-repo.ts pages by it), is a real column in
 * PostgreSQL, unique, and SQLite's index on owner holds it after the owner (as every index of a rowid table does).
 */
function withOrdersRowid(shape: SchemaShape): SchemaShape {
  return {
    ...shape,
    columns: [...shape.columns, 'orders.rowid integer not null default none'].sort(),
    uniques: [...shape.uniques, 'orders(rowid)'].sort(),
    indexes: shape.indexes.map((index) => (index === 'orders_by_owner on orders(owner)' ? 'orders_by_owner on orders(owner,rowid)' : index)),
  };
}

async function open(url: string): Promise<pg.Pool> {
  const pool = await openPostgres(url);
  pools.push(pool);
  return pool;
}

describe.skipIf(!postgresAvailable())(postgresSuite('the PostgreSQL schema'), () => {
  it('has every table, column, key, index, CHECK and trigger of the migrated SQLite schema, and nothing else', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'kassa-parity-'));
    const sqlite = openDatabase(folder);
    const expected = withOrdersRowid(sqliteShape(sqlite));
    sqlite.close();
    rmSync(folder, { recursive: true, force: true });
    const pool = await open(await createTestDatabase());
    const actual = await postgresShape(pool);
    expect(expected.tables.length).toBeGreaterThan(30);
    expect(actual.tables).toEqual(expected.tables);
    expect(actual.columns).toEqual(expected.columns);
    expect(actual.primaryKeys).toEqual(expected.primaryKeys);
    expect(actual.uniques).toEqual(expected.uniques);
    expect(actual.foreignKeys).toEqual(expected.foreignKeys);
    expect(actual.indexes).toEqual(expected.indexes);
    expect(actual.checks).toEqual(expected.checks);
    expect(actual.triggers).toEqual(expected.triggers);
  });

  it('keeps money, epoch milliseconds and counters in BIGINT, flags and seat counts in INTEGER', async () => {
    const pool = await open(await createTestDatabase());
    const { rows } = await pool.query<{ name: string; type: string }>(`
      SELECT table_name || '.' || column_name AS name, data_type AS type FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('integer', 'bigint')`);
    const types = new Map(rows.map((row) => [row.name, row.type]));
    const wide = [...types].filter(([name]) => /(_at|_until|price|amount|amount_off|total|redeemed|redemptions|stock|stock_version|catalog|calls|errors|attempts)$/.test(name)
      || name === 'outbox.id' || name === 'print_jobs.seq' || name === 'orders.rowid');
    expect(wide.length).toBeGreaterThan(40);
    expect(wide.filter(([, type]) => type !== 'bigint')).toEqual([]);
    for (const narrow of ['locations.active', 'vouchers.combinable', 'print_jobs.open_drawer', 'inventory_items.capacity', 'cart_items.quantity', 'stock_clock.id']) {
      expect(types.get(narrow), narrow).toBe('integer');
    }
  });

  it('seeds the one row the engine needs (stock_clock) and is at the newest version', async () => {
    const pool = await open(await createTestDatabase());
    expect((await pool.query('SELECT id, catalog, stock FROM stock_clock')).rows).toEqual([{ id: 1, catalog: 1, stock: 0 }]);
    expect((await pool.query('SELECT version FROM kassa_schema')).rows).toEqual([{ version: NEWEST }]);
  });

  it('migrates once when three processes open the same new database at the same moment', async () => {
    const url = await createTestDatabase();
    const children = [1, 2, 3].map(() => startChild(url));
    await Promise.all(children.map((child) => child.ready));
    for (const child of children) child.go(); // all three at once: each is loaded and waiting
    for (const answer of await Promise.all(children.map((child) => child.answer))) expect(answer).toEqual({ versions: [NEWEST] });
    const pool = await open(url);
    const tables = await pool.query<{ name: string; copies: number }>(`
      SELECT table_name AS name, count(*)::int AS copies FROM information_schema.tables WHERE table_schema = 'public' GROUP BY table_name`);
    expect(tables.rows.length).toBeGreaterThan(30);
    expect(tables.rows.filter((row) => row.copies !== 1)).toEqual([]);
  }, 40_000);

  it('applies the baseline in exactly one of three pools migrating at once; the others wait and find nothing to do', async () => {
    const url = await createTestDatabase();
    const three = [1, 2, 3].map(() => new pg.Pool({ connectionString: url, max: 2 }));
    pools.push(...three);
    const results = await Promise.all(three.map((pool) => migratePostgres(pool)));
    expect(results.map((result) => result.version)).toEqual([NEWEST, NEWEST, NEWEST]);
    expect(results.flatMap((result) => result.applied)).toEqual(VERSIONS);
    expect((await migratePostgres(three[0] ?? new pg.Pool())).applied).toEqual([]);
  });

  it('reads int8 as a JavaScript number through the pool alone, and refuses one past 2^53', async () => {
    const url = await createTestDatabase();
    const pool = await open(url);
    await pool.query("INSERT INTO psp_charges (reference, amount, currency, token, state, created_at) VALUES ('r', $1, 'EUR', 't', 'approved', $2)",
      [1_000_000_000_000, 1_764_000_000_000]);
    const { rows } = await pool.query<{ amount: number; created_at: number }>('SELECT amount, created_at FROM psp_charges');
    expect(rows).toEqual([{ amount: 1_000_000_000_000, created_at: 1_764_000_000_000 }]);
    expect(typeof rows[0]?.amount).toBe('number');
    await expect(pool.query('SELECT 9007199254740993::bigint AS big')).rejects.toThrow(/safe integers/);
    // pg's global parsers are untouched: a plain client still reads int8 as text
    const plain = new pg.Client({ connectionString: url });
    await plain.connect();
    expect((await plain.query('SELECT 1000000000000::bigint AS big')).rows).toEqual([{ big: '1000000000000' }]);
    await plain.end();
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]); // the pool survived the refused row
  });
});

describe('redactUrl', () => {
  it('takes the password out of a PostgreSQL URL and keeps the rest', () => {
    expect(redactUrl('postgres://kassa:s3cret@db.example:5432/kassa?sslmode=require')).toBe('postgres://kassa:***@db.example:5432/kassa?sslmode=require');
    expect(redactUrl('postgresql://db/kassa?user=k&password=s3cret')).not.toContain('s3cret');
    expect(redactUrl('postgres://kassa@db/kassa')).toBe('postgres://kassa@db/kassa');
    expect(redactUrl('not a url //kassa:s3cret@db')).not.toContain('s3cret');
  });
});
