import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../engine/store/postgres/connect';
import { createTestDatabase, postgresAvailable, postgresSuite } from '../helpers/postgres';

// The three SQLite triggers (0011, 0012) and the orders' rowid as the PostgreSQL baseline has them, on a real server.
describe.skipIf(!postgresAvailable())(postgresSuite('the PostgreSQL schema at work'), () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = await openPostgres(await createTestDatabase(), { max: 30 });
    await pool.query(`
      INSERT INTO locations (id, name, currencies, position) VALUES ('l', 'Hall', '["EUR"]', 0);
      INSERT INTO events (id, name, location_id, kind, position) VALUES ('e', 'Show', 'l', 'ticket', 0);
      INSERT INTO occurrences (id, event_id, starts_at, on_sale, position) VALUES ('o', 'e', '2026-12-01T20:00', 1, 0);
      INSERT INTO areas (occurrence_id, id, name, seating, position) VALUES ('o', 'a', 'Stalls', 'general', 0);
      INSERT INTO inventory_items (occurrence_id, id, area_id, capacity, position)
        SELECT 'o', 'i' || n, 'a', 1000, n FROM generate_series(1, 5) n;
      INSERT INTO carts (id, occurrence_id, event_id, location_id, kind, currency, status, created_at, expires_at)
        VALUES ('c', 'o', 'e', 'l', 'ticket', 'EUR', 'ordered', 1, 2);
      INSERT INTO orders (id, cart_id, status, created_at, currency, total, lines, payment) VALUES ('ord', 'c', 'confirmed', 1, 'EUR', 0, '{}', '{}');`);
  });
  afterAll(async () => {
    await pool.end();
  });

  const clock = async (): Promise<number> => (await pool.query<{ stock: number }>('SELECT stock FROM stock_clock')).rows[0]?.stock ?? -1;
  const stamp = async (id: string): Promise<number> =>
    (await pool.query<{ v: number }>("SELECT stock_version AS v FROM inventory_items WHERE occurrence_id = 'o' AND id = $1", [id])).rows[0]?.v ?? -1;

  it('stamps stock changes in commit order, so a reader that saw counter S misses no change committed after it', async () => {
    const start = await clock();
    const first = await pool.connect();
    const second = await pool.connect();
    try {
      await first.query('BEGIN');
      await first.query("UPDATE inventory_items SET held = held + 1 WHERE occurrence_id = 'o' AND id = 'i1'");
      expect(await stamp('i1')).toBe(0); // not committed: nothing stamped yet, the clock is free
      await second.query('BEGIN');
      await second.query("UPDATE inventory_items SET held = held + 1 WHERE occurrence_id = 'o' AND id = 'i2'");
      await second.query('COMMIT');
      const seen = await clock();
      expect(seen).toBe(start + 1);
      expect(await stamp('i2')).toBe(seen);
      await first.query('COMMIT');
      expect(await stamp('i1')).toBe(seen + 1); // changed after what the reader saw: a later stamp
    } finally {
      first.release();
      second.release();
    }
  });

  it('counts every change once when many transactions change stock at once, without deadlocks', async () => {
    const start = await clock();
    const before = (await pool.query<{ held: number }>("SELECT sum(held)::int AS held FROM inventory_items WHERE occurrence_id = 'o'")).rows[0]?.held ?? 0;
    await Promise.all(Array.from({ length: 24 }, async (_, n) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // two items, in key order: lock, then change (the pattern use cases follow)
        const items = [`i${1 + (n % 5)}`, `i${1 + ((n + 2) % 5)}`].sort();
        await client.query("SELECT 1 FROM inventory_items WHERE occurrence_id = 'o' AND id = ANY($1) ORDER BY id FOR UPDATE", [items]);
        for (const item of items) await client.query("UPDATE inventory_items SET held = held + 1 WHERE occurrence_id = 'o' AND id = $1", [item]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    }));
    expect(await clock()).toBe(start + 48);
    const after = (await pool.query<{ held: number }>("SELECT sum(held)::int AS held FROM inventory_items WHERE occurrence_id = 'o'")).rows[0]?.held ?? 0;
    expect(after - before).toBe(48);
  });

  it('leaves the clock alone when an update changes no stock', async () => {
    const start = await clock();
    await pool.query("UPDATE inventory_items SET held = held, label = 'x' WHERE occurrence_id = 'o' AND id = 'i3'");
    expect(await clock()).toBe(start);
  });

  it('uses up places in hand when a sale goes through (holdings_consumed_by_sale)', async () => {
    await pool.query("INSERT INTO holdings (occurrence_id, inventory_item_id, in_hand) VALUES ('o', 'i4', 3)");
    await pool.query("UPDATE inventory_items SET sold = sold + 2 WHERE occurrence_id = 'o' AND id = 'i4'");
    expect((await pool.query("SELECT in_hand FROM holdings WHERE inventory_item_id = 'i4'")).rows).toEqual([{ in_hand: 1 }]);
    await pool.query("UPDATE inventory_items SET sold = sold + 5 WHERE occurrence_id = 'o' AND id = 'i4'");
    expect((await pool.query("SELECT in_hand FROM holdings WHERE inventory_item_id = 'i4'")).rows).toEqual([{ in_hand: 0 }]);
  });

  it('starts an order\'s outbox entry from its upstream hold (outbox_order_starts_from_upstream_hold)', async () => {
    await pool.query("INSERT INTO upstream_holds (local_cart_id, upstream_cart_id, created_at) VALUES ('c', 'up-1', 5)");
    const entries = await pool.query<{ kind: string; upstream_cart_id: string | null; cart_attempted_at: number | null }>(`
      INSERT INTO outbox (kind, order_id, idempotency_key, created_at) VALUES ('order', 'ord', 'k1', 10), ('cancel', 'ord', 'k2', 11)
      RETURNING kind, upstream_cart_id, cart_attempted_at`);
    expect(entries.rows).toEqual([
      { kind: 'order', upstream_cart_id: 'up-1', cart_attempted_at: 5 },
      { kind: 'cancel', upstream_cart_id: null, cart_attempted_at: null },
    ]);
  });

  it('numbers orders in insertion order under `rowid`, so order-repo.ts\'s SQL pages the same on both databases', async () => {
    for (const n of [1, 2, 3]) {
      await pool.query(`INSERT INTO carts (id, occurrence_id, event_id, location_id, kind, currency, status, created_at, expires_at, owner)
        VALUES ($1, 'o', 'e', 'l', 'ticket', 'EUR', 'ordered', 1, 2, 'till')`, [`c${n}`]);
      // the same millisecond and ids out of order: only the insertion order tells them apart
      await pool.query(`INSERT INTO orders (id, cart_id, status, created_at, currency, total, lines, payment, owner)
        VALUES ($1, $2, 'confirmed', 7, 'EUR', 0, '{}', '{}', 'till')`, [`z${4 - n}`, `c${n}`]);
    }
    const newest = await pool.query<{ id: string; seq: number }>("SELECT id, rowid AS seq FROM orders WHERE owner = $1 ORDER BY rowid DESC LIMIT $2", ['till', 2]);
    expect(newest.rows.map((row) => row.id)).toEqual(['z1', 'z2']);
    const older = await pool.query<{ id: string }>('SELECT id FROM orders WHERE owner = $1 AND rowid < $2 ORDER BY rowid DESC LIMIT $3', ['till', newest.rows[1]?.seq, 2]);
    expect(older.rows.map((row) => row.id)).toEqual(['z3']);
  });
});
