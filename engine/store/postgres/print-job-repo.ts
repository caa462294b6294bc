import type { Async } from '../port-types';
import { decodePrintJob, type PrintJobRepo, type PrintLanguageName, type StoredPrintJob } from '../print-job-repo';
import type { Queryable } from './queryable';

/**
 * Print jobs and the language each order was sold in, on PostgreSQL. Every method is one statement. The state
 * moves (`start`, `done`, `retry`, `fail`) are conditional updates on the job's current state, answering whether
 * they applied: at READ COMMITTED an UPDATE that waited for another transaction's row lock evaluates its WHERE
 * again on the row as committed, so when two processes `start` one queued job, exactly one sees rowCount 1 — a
 * job is claimed once. `insert` answers the stored row with RETURNING (the sequence gives `seq`).
 */

const COLUMNS = `seq, id, code, order_id AS "orderId", shift_id AS "shiftId", report, what, printer, language, open_drawer AS "openDrawer", state, reason, attempts,
  next_attempt_at AS "nextAttemptAt", created_at AS "createdAt", updated_at AS "updatedAt", printed_at AS "printedAt"`;

export function createPgPrintJobRepo(q: Queryable): Async<PrintJobRepo> {
  const rows = async (sql: string, values: unknown[]) => (await q.query<StoredPrintJob>(sql, values)).rows.map(decodePrintJob);
  const changed = async (sql: string, values: unknown[]) => (await q.query(sql, values)).rowCount ?? 0;
  const count = async (sql: string, values: unknown[]) => (await q.query<{ n: number }>(sql, values)).rows[0]?.n ?? 0;
  return {
    async insert(job) {
      const [row] = await rows(`INSERT INTO print_jobs (id, code, order_id, what, printer, language, open_drawer, state, next_attempt_at, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', $8, $8, $8) RETURNING ${COLUMNS}`,
      [job.id, job.code, job.orderId, job.what, job.printer, job.language, job.openDrawer, job.createdAt]);
      if (!row) throw new Error(`print job ${job.id} vanished`);
      return row;
    },
    async insertReport(job) {
      const [row] = await rows(`INSERT INTO print_jobs (id, code, shift_id, report, what, printer, language, open_drawer, state, next_attempt_at, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 'queued', $8, $8, $8) RETURNING ${COLUMNS}`,
      [job.id, job.code, job.shiftId, JSON.stringify(job.report), job.what, job.printer, job.language, job.createdAt]);
      if (!row) throw new Error(`print job ${job.id} vanished`);
      return row;
    },
    get: async (id) => (await rows(`SELECT ${COLUMNS} FROM print_jobs WHERE id = $1`, [id]))[0],
    latestOfOrder: async (orderId) => (await rows(`SELECT ${COLUMNS} FROM print_jobs WHERE order_id = $1 ORDER BY seq DESC LIMIT 1`, [orderId]))[0],
    drawerOpened: async (orderId) => (await count('SELECT COUNT(*)::integer AS n FROM print_jobs WHERE order_id = $1 AND open_drawer = 1', [orderId])) > 0,
    head: async (printer) =>
      (await rows(`SELECT ${COLUMNS} FROM print_jobs WHERE printer = $1 AND state IN ('queued', 'printing') ORDER BY seq LIMIT 1`, [printer]))[0],
    waiting: (printer) => count("SELECT COUNT(*)::integer AS n FROM print_jobs WHERE printer = $1 AND state IN ('queued', 'printing')", [printer]),
    list: (filter) => rows(`SELECT ${COLUMNS} FROM print_jobs
      WHERE ($1::text IS NULL OR order_id = $1) AND ($2::text IS NULL OR shift_id = $2) AND ($3::text IS NULL OR state = $3) ORDER BY seq DESC LIMIT $4`,
    [filter.orderId ?? null, filter.shiftId ?? null, filter.state ?? null, filter.limit]),
    /** queued → printing, the claim: false when the job is no longer queued (another process claimed it) */
    start: async (seq, now) =>
      (await changed("UPDATE print_jobs SET state = 'printing', attempts = attempts + 1, updated_at = $1 WHERE seq = $2 AND state = 'queued'", [now, seq])) === 1,
    done: async (seq, now) =>
      (await changed("UPDATE print_jobs SET state = 'done', reason = NULL, printed_at = $1, updated_at = $1 WHERE seq = $2 AND state = 'printing'", [now, seq])) === 1,
    retry: async (seq, reason, at, now) => (await changed(
      "UPDATE print_jobs SET state = 'queued', reason = $1, next_attempt_at = $2, updated_at = $3 WHERE seq = $4 AND state = 'printing'", [reason, at, now, seq])) === 1,
    fail: async (seq, reason, now) =>
      (await changed("UPDATE print_jobs SET state = 'failed', reason = $1, updated_at = $2 WHERE seq = $3 AND state IN ('queued', 'printing')", [reason, now, seq])) === 1,
    /** `printing` jobs of `printer` untouched since `untouchedSince`: left half-sent by a process that stopped or died */
    failInterrupted: (printer, reason, now, untouchedSince) => changed(
      "UPDATE print_jobs SET state = 'failed', reason = $1, updated_at = $2 WHERE state = 'printing' AND printer = $3 AND updated_at <= $4", [reason, now, printer, untouchedSince]),
    touch: async (seq, now) => (await changed("UPDATE print_jobs SET updated_at = $1 WHERE seq = $2 AND state = 'printing'", [now, seq])) === 1,
    languageOf: async (orderId) =>
      (await q.query<{ language: PrintLanguageName }>('SELECT language FROM order_languages WHERE order_id = $1', [orderId])).rows[0]?.language,
  };
}
