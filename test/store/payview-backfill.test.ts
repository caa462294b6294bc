import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../engine/store/db';
import { openPostgres } from '../../engine/store/postgres/connect';
import { migratePostgres } from '../../engine/store/postgres/migrate';
import { createTestDatabase, postgresAvailable, postgresSuite } from '../helpers/postgres';
import { cartSql, SEED } from './pg-repos-a-fixture';

/**
 * Migration 0018 on both databases: payment_attempts.refunded_at, back-filled for refunded attempts of an old
 * database from their order's stored payment view (its `refundedAt`), else from the order's cancellation.
 */

const SQLITE_MIGRATIONS = fileURLToPath(new URL('../../engine/store/migrations/', import.meta.url));
const PG_MIGRATIONS = fileURLToPath(new URL('../../engine/store/postgres/migrations/', import.meta.url));

/** a folder with the migrations of `dir` up to `version` */
function migrationsUpTo(dir: string, version: number): string {
  const copy = mkdtempSync(join(tmpdir(), 'kassa-migrations-'));
  for (const file of readdirSync(dir).filter((name) => /^\d{4}-/.test(name) && Number(name.slice(0, 4)) <= version)) copyFileSync(join(dir, file), join(copy, file));
  return copy;
}

const payment = (status: string, refundedAt?: string) =>
  JSON.stringify({ method: 'card', status, amount: { amount: 5000, currency: 'EUR' }, reference: 'x', authenticated: false, ...(refundedAt && { refundedAt }) });
const order = (id: string, cart: string, status: string, cancelledAt: number | null, json: string) => `INSERT INTO orders (id, cart_id, status, created_at,
  cancelled_at, currency, total, lines, payment, api_key_id, owner) VALUES ('${id}', '${cart}', '${status}', 5000, ${cancelledAt ?? 'NULL'}, 'EUR', 5000, '{}', '${json}', NULL, NULL);`;
const attempt = (id: string, cart: string, state: string, orderId: string | null) => `INSERT INTO payment_attempts (id, cart_id, api_key_id, idempotency_key,
  method, amount, currency, request, state, created_at, order_id) VALUES ('${id}', '${cart}', 'k1', '${id}', 'card', 5000, 'EUR', '{}', '${state}', 1000,
  ${orderId === null ? 'NULL' : `'${orderId}'`});`;

/** an old database's rows: refunded with a stored refund time, refunded without one, captured, and an orphan refunded */
const OLD_ROWS = [
  SEED, cartSql('c1'), cartSql('c2'), cartSql('c3'), cartSql('c4'),
  order('o1', 'c1', 'cancelled', 6000, payment('refunded', '2026-01-02T03:04:05.678Z')), attempt('pay1', 'c1', 'refunded', 'o1'),
  order('o2', 'c2', 'cancelled', 7000, payment('refunded')), attempt('pay2', 'c2', 'refunded', 'o2'),
  order('o3', 'c3', 'confirmed', null, payment('captured')), attempt('pay3', 'c3', 'captured', 'o3'),
  attempt('pay4', 'c4', 'refunded', null),
].join('\n');
const EXPECTED = [
  { id: 'pay1', refunded_at: Date.parse('2026-01-02T03:04:05.678Z') },
  { id: 'pay2', refunded_at: 7000 },
  { id: 'pay3', refunded_at: null },
  { id: 'pay4', refunded_at: null },
];
const READ = 'SELECT id, refunded_at FROM payment_attempts ORDER BY id';

describe('migration 0018 on SQLite: the refund time moves onto the attempt', () => {
  it('back-fills refunded_at from the orders of a database at 0017', () => {
    const data = mkdtempSync(join(tmpdir(), 'kassa-0018-'));
    const upTo17 = migrationsUpTo(SQLITE_MIGRATIONS, 17);
    const upTo18 = migrationsUpTo(SQLITE_MIGRATIONS, 18);
    const db = openDatabase(data, upTo17);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(17);
      db.exec(OLD_ROWS);
      migrate(db, upTo18);
      expect(db.pragma('user_version', { simple: true })).toBe(18);
      expect(db.prepare(READ).all()).toEqual(EXPECTED);
    } finally {
      db.close();
      rmSync(data, { recursive: true, force: true });
      rmSync(upTo17, { recursive: true, force: true });
      rmSync(upTo18, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!postgresAvailable())(postgresSuite('migration 0018 on PostgreSQL: the refund time moves onto the attempt'), () => {
  it('back-fills refunded_at from the orders of a database at 0017, as on SQLite', async () => {
    const upTo17 = migrationsUpTo(PG_MIGRATIONS, 17);
    const upTo18 = migrationsUpTo(PG_MIGRATIONS, 18);
    const pool = await openPostgres(await createTestDatabase(), { migrationsDir: upTo17 });
    try {
      expect((await pool.query('SELECT version FROM kassa_schema')).rows).toEqual([{ version: 17 }]);
      await pool.query(OLD_ROWS);
      expect(await migratePostgres(pool, upTo18)).toEqual({ version: 18, applied: [18] });
      expect((await pool.query(READ)).rows).toEqual(EXPECTED);
    } finally {
      await pool.end();
      rmSync(upTo17, { recursive: true, force: true });
      rmSync(upTo18, { recursive: true, force: true });
    }
  });
});
