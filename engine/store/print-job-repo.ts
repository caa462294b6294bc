import Value from 'typebox/value';
import { ShiftReport } from '../contract/shift';
import type { Db } from './db';

/**
 * Print jobs and the language each order was sold in. Every method runs in the caller's transaction. A job prints
 * an order (`orderId`, what: tickets, receipt, all) or a shift's report (`shiftId`, what: xReport, zReport, and
 * the report as it was when asked, decoded and checked here: migration 0023).
 */

export type PrintJobStateName = 'queued' | 'printing' | 'done' | 'failed';
export type PrintWhatName = 'tickets' | 'receipt' | 'all';
export type PrintReportName = 'xReport' | 'zReport';
export type PrintLanguageName = 'en' | 'de' | 'fr';

export interface PrintJobRow {
  seq: number;
  id: string;
  code: string;
  /** the order printed; null for a shift's report */
  orderId: string | null;
  /** the shift whose report is printed; null for an order's job */
  shiftId: string | null;
  /** that report as it was when the print was asked; null for an order's job */
  report: ShiftReport | null;
  what: PrintWhatName | PrintReportName;
  printer: string;
  language: PrintLanguageName;
  openDrawer: 0 | 1;
  state: PrintJobStateName;
  reason: string | null;
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
  updatedAt: number;
  printedAt: number | null;
}

export type NewPrintJob = Pick<PrintJobRow, 'id' | 'code' | 'printer' | 'language' | 'openDrawer' | 'createdAt'> & { orderId: string; what: PrintWhatName };
/** a shift's report to print: never opens the drawer */
export type NewReportJob = Pick<PrintJobRow, 'id' | 'code' | 'printer' | 'language' | 'createdAt'> & { shiftId: string; what: PrintReportName; report: ShiftReport };

/** a row as stored: the report is JSON text */
export type StoredPrintJob = Omit<PrintJobRow, 'report'> & { report: string | null };

/** A stored row with its report decoded and checked against the contract's ShiftReport (a row changed by hand throws). */
export function decodePrintJob(row: StoredPrintJob): PrintJobRow {
  if (row.report === null) return { ...row, report: null };
  const report: unknown = JSON.parse(row.report);
  if (!Value.Check(ShiftReport, report)) throw new Error(`print job ${row.id}: its report is not a shift report`);
  return { ...row, report };
}

const COLUMNS = `seq, id, code, order_id AS orderId, shift_id AS shiftId, report, what, printer, language, open_drawer AS openDrawer, state, reason, attempts,
  next_attempt_at AS nextAttemptAt, created_at AS createdAt, updated_at AS updatedAt, printed_at AS printedAt`;

export function createPrintJobRepo(db: Db) {
  const insert = db.prepare<[NewPrintJob]>(`INSERT INTO print_jobs (id, code, order_id, what, printer, language, open_drawer, state, next_attempt_at, created_at, updated_at)
    VALUES (@id, @code, @orderId, @what, @printer, @language, @openDrawer, 'queued', @createdAt, @createdAt, @createdAt)`);
  const insertReport = db.prepare<[Omit<NewReportJob, 'report'> & { report: string }]>(`INSERT INTO print_jobs (id, code, shift_id, report, what, printer, language, open_drawer, state, next_attempt_at, created_at, updated_at)
    VALUES (@id, @code, @shiftId, @report, @what, @printer, @language, 0, 'queued', @createdAt, @createdAt, @createdAt)`);
  const byId = db.prepare<[string], StoredPrintJob>(`SELECT ${COLUMNS} FROM print_jobs WHERE id = ?`);
  const latestOfOrder = db.prepare<[string], StoredPrintJob>(`SELECT ${COLUMNS} FROM print_jobs WHERE order_id = ? ORDER BY seq DESC LIMIT 1`);
  const drawerOpened = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM print_jobs WHERE order_id = ? AND open_drawer = 1');
  const head = db.prepare<[string], StoredPrintJob>(`SELECT ${COLUMNS} FROM print_jobs WHERE printer = ? AND state IN ('queued', 'printing') ORDER BY seq LIMIT 1`);
  const waiting = db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM print_jobs WHERE printer = ? AND state IN ('queued', 'printing')");
  const list = db.prepare<[{ orderId: string | null; shiftId: string | null; state: string | null; limit: number }], StoredPrintJob>(`SELECT ${COLUMNS} FROM print_jobs
    WHERE (@orderId IS NULL OR order_id = @orderId) AND (@shiftId IS NULL OR shift_id = @shiftId) AND (@state IS NULL OR state = @state) ORDER BY seq DESC LIMIT @limit`);
  const start = db.prepare<[number, number]>("UPDATE print_jobs SET state = 'printing', attempts = attempts + 1, updated_at = ? WHERE seq = ? AND state = 'queued'");
  const done = db.prepare<[number, number, number]>("UPDATE print_jobs SET state = 'done', reason = NULL, printed_at = ?, updated_at = ? WHERE seq = ? AND state = 'printing'");
  const retry = db.prepare<[string, number, number, number]>(
    "UPDATE print_jobs SET state = 'queued', reason = ?, next_attempt_at = ?, updated_at = ? WHERE seq = ? AND state = 'printing'");
  const fail = db.prepare<[string, number, number]>("UPDATE print_jobs SET state = 'failed', reason = ?, updated_at = ? WHERE seq = ? AND state IN ('queued', 'printing')");
  const interrupted = db.prepare<[string, number, string, number]>(
    "UPDATE print_jobs SET state = 'failed', reason = ?, updated_at = ? WHERE state = 'printing' AND printer = ? AND updated_at <= ?");
  const touch = db.prepare<[number, number]>("UPDATE print_jobs SET updated_at = ? WHERE seq = ? AND state = 'printing'");
  const languageOf = db.prepare<[string], { language: PrintLanguageName }>('SELECT language FROM order_languages WHERE order_id = ?');

  return {
    insert(job: NewPrintJob): PrintJobRow {
      insert.run(job);
      const row = byId.get(job.id);
      if (!row) throw new Error(`print job ${job.id} vanished`);
      return decodePrintJob(row);
    },
    /** queues a shift's report (POST /shifts/{id}/print) */
    insertReport(job: NewReportJob): PrintJobRow {
      insertReport.run({ ...job, report: JSON.stringify(job.report) });
      const row = byId.get(job.id);
      if (!row) throw new Error(`print job ${job.id} vanished`);
      return decodePrintJob(row);
    },
    get: (id: string) => decodeOptional(byId.get(id)),
    latestOfOrder: (orderId: string) => decodeOptional(latestOfOrder.get(orderId)),
    drawerOpened: (orderId: string) => (drawerOpened.get(orderId)?.n ?? 0) > 0,
    /** the job a printer works on next: the oldest unfinished one (it may still be waiting for its retry time) */
    head: (printer: string) => decodeOptional(head.get(printer)),
    waiting: (printer: string) => waiting.get(printer)?.n ?? 0,
    list: (filter: { orderId?: string; shiftId?: string; state?: PrintJobStateName; limit: number }) =>
      list.all({ orderId: filter.orderId ?? null, shiftId: filter.shiftId ?? null, state: filter.state ?? null, limit: filter.limit }).map(decodePrintJob),
    /** queued → printing; false when the job is no longer queued */
    start: (seq: number, now: number) => start.run(now, seq).changes === 1,
    done: (seq: number, now: number) => done.run(now, now, seq).changes === 1,
    retry: (seq: number, reason: string, at: number, now: number) => retry.run(reason, at, now, seq).changes === 1,
    fail: (seq: number, reason: string, now: number) => fail.run(reason, now, seq).changes === 1,
    /**
     * Fails the jobs of `printer` left half-sent — `printing`, and untouched since `untouchedSince` (a job being
     * printed is touched while it is sent: printing/queue.ts) — never to be resent (at most once). Answers how many.
     */
    failInterrupted: (printer: string, reason: string, now: number, untouchedSince: number) => interrupted.run(reason, now, printer, untouchedSince).changes,
    /** a job being sent is still being sent (its `updated_at` is now): another process sharing the database leaves it be */
    touch: (seq: number, now: number) => touch.run(now, seq).changes === 1,
    languageOf: (orderId: string) => languageOf.get(orderId)?.language,
  };
}

export type PrintJobRepo = ReturnType<typeof createPrintJobRepo>;

const decodeOptional = (row: StoredPrintJob | undefined): PrintJobRow | undefined => (row === undefined ? undefined : decodePrintJob(row));
