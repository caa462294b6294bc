import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { expect } from 'vitest';
import { openDatabase, type Db } from '../../engine/store/db';
import type { Async } from '../../engine/store/port-types';
import { openPostgres } from '../../engine/store/postgres/connect';
import { createTestDatabase } from '../helpers/postgres';

/**
 * Two databases with the same rows, for the parity tests of test/store/pg-repos-a*.test.ts: a migrated SQLite
 * file in a temp folder (openDatabase) and a fresh PostgreSQL database on the run's cluster, migrated
 * (engine/store/postgres/migrations, through the run's template) and opened as the engine opens it (openPostgres).
 */


/** Rows both dialects take as written. Seat ids whose byte order differs from a locale's: '10' < '9' < 'B' < 'a'. */
export const SEED = `
  INSERT INTO locations (id, name, currencies, position, time_zone) VALUES ('l1', 'Hall', '["EUR","CHF"]', 0, 'Europe/Zurich');
  INSERT INTO events (id, name, location_id, kind, position) VALUES ('e1', 'Show', 'l1', 'ticket', 0);
  INSERT INTO occurrences (id, event_id, starts_at, on_sale, position) VALUES ('o1', 'e1', '2026-12-01T20:00:00Z', 1, 0);
  INSERT INTO occurrences (id, event_id, starts_at, on_sale, position) VALUES ('o2', 'e1', '2026-12-02T20:00:00Z', 1, 1);
  INSERT INTO areas (occurrence_id, id, name, seating, position) VALUES ('o1', 'ga', 'Floor', 'general', 1);
  INSERT INTO areas (occurrence_id, id, name, seating, position) VALUES ('o1', 'sx', 'Seats', 'assigned', 0);
  INSERT INTO areas (occurrence_id, id, name, seating, position) VALUES ('o1', 'none', 'Empty', 'general', 2);
  INSERT INTO inventory_items (occurrence_id, id, area_id, label, capacity, position) VALUES ('o1', 'floor', 'ga', NULL, 10, 0);
  INSERT INTO inventory_items (occurrence_id, id, area_id, label, capacity, position) VALUES ('o1', 'B', 'sx', 'Row 1 B', 1, 1);
  INSERT INTO inventory_items (occurrence_id, id, area_id, label, capacity, position) VALUES ('o1', 'a', 'sx', 'Row 1 a', 1, 2);
  INSERT INTO inventory_items (occurrence_id, id, area_id, label, capacity, position) VALUES ('o1', '10', 'sx', 'Row 1 10', 1, 3);
  INSERT INTO inventory_items (occurrence_id, id, area_id, label, capacity, position) VALUES ('o1', '9', 'sx', 'Row 1 9', 1, 4);
  INSERT INTO inventory_items (occurrence_id, id, area_id, label, capacity, position, active) VALUES ('o1', 'gone', 'ga', NULL, 5, 5, 0);
  INSERT INTO vouchers (code, percent_off, max_redemptions) VALUES ('LIMITED', '10', 2);
  INSERT INTO vouchers (code, percent_off, max_redemptions) VALUES ('FREE', '5', NULL);
  INSERT INTO api_keys (id, name, hash, scopes, created_at, owner) VALUES ('k1', 'one', 'h1', '[]', '2026-01-01', NULL);
  INSERT INTO api_keys (id, name, hash, scopes, created_at, owner) VALUES ('k2', 'two', 'h2', '[]', '2026-01-01', 'box');
`;

/** A held cart of o1 with its lines, written as plain SQL (both dialects); its stock is held through `hold`. */
export function cartSql(id: string, options: { expiresAt?: number; owner?: string; lines?: [string, number][] } = {}): string {
  const lines = options.lines ?? [['floor', 2]];
  const owner = options.owner === undefined ? 'NULL' : `'${options.owner}'`;
  return [
    `INSERT INTO carts (id, occurrence_id, event_id, location_id, kind, currency, status, created_at, expires_at, owner)
      VALUES ('${id}', 'o1', 'e1', 'l1', 'ticket', 'EUR', 'held', 1000, ${options.expiresAt ?? 10_000_000}, ${owner});`,
    ...lines.map(([item, quantity], position) => `INSERT INTO cart_items (id, cart_id, position, type, name, quantity, unit_price, inventory_item_id,
      price_option_id) VALUES ('${id}-${position}', '${id}', ${position}, 'admission', 'Line ${item}', ${quantity}, 2500, '${item}', 'p1');
      UPDATE inventory_items SET held = held + ${quantity} WHERE occurrence_id = 'o1' AND id = '${item}';`),
  ].join('\n');
}

/** An order row for a cart made by cartSql (sold: its held stock moves to sold). */
export function orderSql(id: string, cartId: string, options: { createdAt?: number; currency?: string; total?: number; owner?: string; status?: string } = {}): string {
  const owner = options.owner === undefined ? 'NULL' : `'${options.owner}'`;
  return `INSERT INTO orders (id, cart_id, status, created_at, currency, total, lines, payment, api_key_id, owner)
    VALUES ('${id}', '${cartId}', '${options.status ?? 'confirmed'}', ${options.createdAt ?? 5000}, '${options.currency ?? 'EUR'}',
      ${options.total ?? 5000}, '{}', '{}', NULL, ${owner});`;
}

export interface Side {
  /** runs statements (setup) */
  exec(sql: string): Promise<void>;
  /** one SELECT's rows */
  read(sql: string): Promise<unknown[]>;
}

export interface Pair {
  readonly sqlite: Db;
  readonly pool: pg.Pool;
  readonly client: pg.PoolClient;
  readonly url: string;
  readonly sqliteSide: Side;
  readonly pgSide: Side;
  close(): Promise<void>;
}

/** Both databases, migrated and seeded alike. */
export async function openPair(seed: string = SEED): Promise<Pair> {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-pgrepo-a-'));
  const sqlite = openDatabase(dir);
  sqlite.exec(seed);
  const url = await createTestDatabase({ migrated: true });
  const pool = await openPostgres(url, { max: 12 });
  const client = await pool.connect();
  await client.query(seed);
  return {
    sqlite,
    pool,
    client,
    url,
    sqliteSide: {
      exec: async (sql) => void sqlite.exec(sql),
      read: async (sql) => sqlite.prepare(sql).all(),
    },
    pgSide: {
      exec: async (sql) => void (await client.query(sql)),
      read: async (sql) => (await client.query(sql)).rows,
    },
    async close() {
      client.release();
      // the database is left to the cluster's teardown: pool.end() does not wait for its sockets to close, and a
      // DROP … WITH (FORCE) right after it reached a closing client as an uncaught 57P01
      await pool.end();
      sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `work` in its own transaction on a client of the pool: COMMIT on success, ROLLBACK on a throw (rethrown). */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, ready?: () => Promise<void>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await ready?.();
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** A barrier for `count` parties: each awaits the returned function; all go on once the last has arrived. */
export function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return async () => {
    arrived += 1;
    if (arrived >= count) open();
    await gate;
  };
}

/**
 * Parity: the same calls on the SQLite repository (a migrated file) and its PostgreSQL twin (a fresh database),
 * with the same rows; every answer and the rows they leave must be equal.
 */
export async function parity<R>(sqlite: (pair: Pair) => R, postgres: (pair: Pair) => Async<R>,
  steps: (repo: R | Async<R>, db: Side) => Promise<unknown[]>): Promise<unknown[]> {
  const pair = await openPair();
  try {
    const expected = await steps(sqlite(pair), pair.sqliteSide);
    const actual = await steps(postgres(pair), pair.pgSide);
    expect(actual).toEqual(expected);
    return expected;
  } finally {
    await pair.close();
  }
}

/** what a call threw, comparable across adapters */
export async function thrown(call: () => unknown): Promise<string> {
  try {
    await call();
    return 'no error';
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}
