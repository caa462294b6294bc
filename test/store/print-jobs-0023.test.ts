import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../engine/store/db';
import { createPrintJobRepo } from '../../engine/store/print-job-repo';
import { cartSql, SEED } from './pg-repos-a-fixture';

/**
 * Migration 0023 on SQLite rebuilds print_jobs (a job may be a shift's report): the jobs of a database at 0022 keep
 * every column and their seq, and the new checks hold (a job is an order's or a shift's, never neither).
 */

const SQLITE_MIGRATIONS = fileURLToPath(new URL('../../engine/store/migrations/', import.meta.url));

function migrationsUpTo(version: number): string {
  const copy = mkdtempSync(join(tmpdir(), 'kassa-migrations-'));
  for (const file of readdirSync(SQLITE_MIGRATIONS).filter((name) => /^\d{4}-/.test(name) && Number(name.slice(0, 4)) <= version)) copyFileSync(join(SQLITE_MIGRATIONS, file), join(copy, file));
  return copy;
}

describe('migration 0023 on SQLite', () => {
  it('keeps the print jobs of a database at 0022 and refuses a job of nothing', () => {
    const data = mkdtempSync(join(tmpdir(), 'kassa-0023-'));
    const upTo22 = migrationsUpTo(22);
    const db = openDatabase(data, upTo22);
    try {
      db.exec([
        SEED, cartSql('c1'),
        `INSERT INTO orders (id, cart_id, status, created_at, cancelled_at, currency, total, lines, payment, api_key_id, owner)
          VALUES ('o1', 'c1', 'confirmed', 5000, NULL, 'EUR', 5000, '{}', '{}', NULL, NULL);`,
        `INSERT INTO print_jobs (seq, id, code, order_id, what, printer, language, open_drawer, state, reason, attempts, next_attempt_at, created_at, updated_at, printed_at)
          VALUES (7, 'prj_1', 'ABCD1234', 'o1', 'receipt', 'tcp://127.0.0.1:9100', 'de', 1, 'done', NULL, 2, 6000, 6000, 6100, 6100);`,
      ].join('\n'));
      migrate(db);
      expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(23);
      expect(createPrintJobRepo(db).get('prj_1')).toEqual({
        seq: 7, id: 'prj_1', code: 'ABCD1234', orderId: 'o1', shiftId: null, report: null, what: 'receipt', printer: 'tcp://127.0.0.1:9100', language: 'de',
        openDrawer: 1, state: 'done', reason: null, attempts: 2, nextAttemptAt: 6000, createdAt: 6000, updatedAt: 6100, printedAt: 6100,
      });
      expect(() => db.exec(`INSERT INTO print_jobs (id, code, what, printer, language, open_drawer, state, next_attempt_at, created_at, updated_at)
        VALUES ('prj_2', 'ABCD1235', 'receipt', 'p', 'en', 0, 'queued', 0, 0, 0)`)).toThrow(/CHECK constraint failed/);
      const indexes = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'print_jobs' AND sql IS NOT NULL ORDER BY name").all();
      expect(indexes.map((index) => index.name)).toEqual(['print_jobs_by_order', 'print_jobs_by_shift', 'print_jobs_printing', 'print_jobs_queue']);
    } finally {
      db.close();
      rmSync(data, { recursive: true, force: true });
      rmSync(upTo22, { recursive: true, force: true });
    }
  });
});
