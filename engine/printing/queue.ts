import type { Log } from '../log';
import type { Printer } from '../contract/printing';
import type { PrintJobRow } from '../store/print-job-repo';
import { readOrder } from '../orders/read-order';
import type { Clock, Durability, Storage } from '../shared/context';
import { backoffDelay, DEFAULT_BACKOFF, type Backoff } from './backoff';
import { printDocument, type PrintDocument } from './document';
import { reportSlip } from './report-document';
import { encodeEscPos } from './escpos';
import { renderHtml } from './html';
import type { PrinterSpec } from './printers';
import { DEFAULT_TCP_TIMEOUTS, probeTcp, sendTcp, timeoutsForJob, type TcpTimeouts } from './tcp';
import { localizeOrder } from '../shared/localize';

type Delivery = { readonly ok: true } | { readonly ok: false; readonly sent: boolean; readonly retry: boolean; readonly reason: string };

/**
 * The print queue: one worker per configured printer, each taking that printer's jobs one at a time in the
 * order they were queued. Jobs live in SQLite, so a restart resumes them.
 *
 * Delivery is at most once. A job is marked `printing` (committed) before its first byte leaves; it becomes
 * `done` when the printer took every byte. While the printer cannot be reached (no connection: not a byte
 * sent) the job goes back to `queued` with the reason and is tried again after the backoff. A job that may
 * be partly on paper — the connection broke or stalled after it opened, or the engine died while it was
 * `printing` — is `failed` with the reason and never resent on its own: a doubled ticket is worse to sort
 * out at the door than a missing one staff reprint from the queue. The window between the printer taking
 * the last byte and `done` being committed is one synchronous SQLite write.
 */

export interface SystemPrintRequest {
  /** the operating system's printer name */
  readonly printer: string;
  readonly paper: '58mm' | '80mm' | 'a4';
  /** a complete HTML page: one ticket or the receipt per printed page */
  readonly html: string;
}

/** Prints a page on an operating-system printer without a dialog; rejects with an Error saying why it failed. */
export type SystemPrint = (request: SystemPrintRequest) => Promise<void>;

export interface PrintQueueOptions {
  readonly printers: readonly PrinterSpec[];
  readonly systemPrint?: SystemPrint | undefined;
  /** the zone dates print in (default: this machine's, i.e. the venue's) */
  readonly timeZone?: string | undefined;
  readonly backoff?: Backoff | undefined;
  readonly tcp?: TcpTimeouts | undefined;
  /** how often an idle network printer is checked, so a printer that is down shows before a sale (0: never) */
  readonly probeIntervalMs?: number | undefined;
  readonly logger: Log;
}

export interface PrintQueue {
  readonly printers: readonly PrinterSpec[];
  /** the printers with their state (ready, down, not tried yet) and how many jobs wait */
  status(): Promise<Printer[]>;
  /** a job was queued for `printer`: its worker looks now */
  wake(printer: string): void;
  stop(): Promise<void>;
}

export const DEFAULT_PROBE_INTERVAL_MS = 30_000;
/** how long a stop waits for a job on its way to the printer before cutting it off */
const STOP_GRACE_MS = 3_000;
export const INTERRUPTED_REASON = 'interrupted while printing (the engine stopped): check the printout and reprint if it is missing';
/** how often a job being sent is touched, so that other engine processes sharing the database see it is (§16) */
export const PRINTING_HEARTBEAT_MS = 10_000;
/** a `printing` job untouched this long was left half-sent by a process that died: failed, never resent */
export const PRINTING_LEASE_MS = 3 * PRINTING_HEARTBEAT_MS;
/** how soon a printer's worker looks again at a head job another live process is sending */
const OTHERS_JOB_WAIT_MS = 2_000;

export async function startPrintQueue(ctx: Storage & Clock & Durability, options: PrintQueueOptions): Promise<PrintQueue> {
  const jobs = ctx.store.repos.printJobs;
  // SQLite: this process is the database's only one, so every job left `printing` was cut off by its last stop.
  // PostgreSQL: other engine processes may be sending a job to the same printer right now (contract §16); only a
  // job nobody has touched for the lease was left by a process that died.
  const shared = ctx.store.dialect === 'postgres';
  const untouchedSince = () => ctx.now() - (shared ? PRINTING_LEASE_MS : 0);
  let interrupted = 0;
  for (const printer of options.printers) interrupted += await jobs.failInterrupted(printer.id, INTERRUPTED_REASON, ctx.now(), untouchedSince());
  if (interrupted > 0) options.logger.warn({ interrupted }, 'print jobs interrupted by the last stop are failed, not resent');
  const stopping = new AbortController();
  const cutOff = new AbortController();
  const timeZone = options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const workers = new Map(options.printers.map((printer) => [printer.id, createWorker(printer)]));
  const running = [...workers.values()].map((worker) => worker.loop());

  function createWorker(printer: PrinterSpec) {
    // `woken`: a wake that came while the worker was not pausing (reading the head, probing, sending): the next
    // pause returns at once, so a job queued in that moment does not wait out the probe interval
    const state: { health: Printer['state']; reason: string | undefined; failures: number; wake: (() => void) | undefined; woken: boolean } = {
      health: 'unknown',
      reason: undefined,
      failures: 0,
      wake: undefined,
      woken: false,
    };
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        if (state.woken) {
          state.woken = false;
          resolve();
          return;
        }
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          state.wake = undefined;
          stopping.signal.removeEventListener('abort', done);
          resolve();
        }
        state.wake = done;
        if (stopping.signal.aborted) done();
        else stopping.signal.addEventListener('abort', done, { once: true });
      });
    /** what the last contact with the printer showed; a probe does not count towards a job's backoff */
    const reachable = (ok: boolean, reason?: string, probe = false) => {
      if (ok && state.health !== 'ready') options.logger.info({ printer: printer.id }, 'printer ready');
      if (!ok && state.health !== 'down') options.logger.warn({ printer: printer.id, reason }, 'printer down');
      state.health = ok ? 'ready' : 'down';
      state.reason = ok ? undefined : reason;
      if (ok) state.failures = 0;
      else if (!probe) state.failures += 1;
    };

    async function loop(): Promise<void> {
      let lastProbe = 0;
      while (!stopping.signal.aborted) {
        state.woken = false; // the head read below sees every job queued before it
        const job = await jobs.head(printer.id);
        if (!job) {
          const interval = options.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS;
          if (printer.kind === 'escpos' && interval > 0 && Date.now() - lastProbe >= interval) {
            lastProbe = Date.now();
            const reason = await probeTcp(printer, (options.tcp ?? DEFAULT_TCP_TIMEOUTS).connectTimeoutMs, stopping.signal);
            if (stopping.signal.aborted) break;
            reachable(reason === undefined, reason, true);
          }
          await pause(interval > 0 ? interval : 3_600_000);
          continue;
        }
        let waitMs: number;
        try {
          waitMs = await work(job);
        } catch (error) {
          options.logger.error({ err: error, printer: printer.id, job: job.id }, 'print queue error');
          waitMs = 1_000;
        }
        if (waitMs > 0) await pause(waitMs);
      }
    }

    /** Works one job; answers how long to wait before the next try (0: go on at once). */
    async function work(job: PrintJobRow): Promise<number> {
      if (!(await jobs.start(job.seq, ctx.now()))) {
        // Already `printing`: cut off mid-job — by a previous loop, or by another process sharing the database
        // that died (nobody touches it any more) — and never resent. One another live process is sending is its.
        if ((await jobs.failInterrupted(printer.id, INTERRUPTED_REASON, ctx.now(), untouchedSince())) > 0) return 0;
        return OTHERS_JOB_WAIT_MS;
      }
      // nothing prints — a ticket, a receipt — that a power cut could take from the database, nor twice
      await ctx.whenDurable();
      const heartbeat = shared ? setInterval(() => touch(job), PRINTING_HEARTBEAT_MS) : undefined;
      const outcome = await deliver(job)
        .catch((error: unknown): Delivery => {
          options.logger.error({ err: error, printer: printer.id, job: job.id }, 'print job could not be prepared');
          return { ok: false, sent: false, retry: false, reason: 'the job could not be prepared (see the engine log)' };
        })
        .finally(() => clearInterval(heartbeat));
      return await ctx.store.transaction(async (tx) => {
        const now = ctx.now();
        if (outcome.ok) {
          await tx.printJobs.done(job.seq, now);
          return 0;
        }
        if (!outcome.sent && outcome.retry) {
          const delay = backoffDelay(options.backoff ?? DEFAULT_BACKOFF, state.failures);
          await tx.printJobs.retry(job.seq, outcome.reason, now + delay, now);
          return delay;
        }
        await tx.printJobs.fail(job.seq, outcome.sent ? `${outcome.reason}; check the printout and reprint if it is missing` : outcome.reason, now);
        return 0;
      });
    }

    /** tells the other processes this job is still being sent (a failed touch only risks its lease) */
    function touch(job: PrintJobRow): void {
      void jobs.touch(job.seq, ctx.now()).catch((error: unknown) => options.logger.warn({ err: error, printer: printer.id, job: job.id }, 'print job heartbeat failed'));
    }

    async function deliver(job: PrintJobRow): Promise<Delivery> {
      const document = await documentOf(job);
      if ('reason' in document) return { ok: false, sent: false, retry: false, reason: document.reason };
      if (printer.kind === 'escpos') {
        const slips = document.tickets.length + (document.receipt ? 1 : 0) + (document.report ? 1 : 0);
        const outcome = await sendTcp(printer, await encodeEscPos(document, printer.paper), timeoutsForJob(options.tcp ?? DEFAULT_TCP_TIMEOUTS, slips), cutOff.signal);
        reachable(outcome.ok, outcome.ok ? undefined : outcome.reason);
        if (!outcome.ok) options.logger.warn({ printer: printer.id, job: job.id, reason: outcome.reason, sent: outcome.sent }, 'print job not printed');
        return outcome.ok ? outcome : { ...outcome, retry: !outcome.sent };
      }
      if (!options.systemPrint) return { ok: false, sent: false, retry: false, reason: 'system printers print from the desktop app only' };
      try {
        await options.systemPrint({ printer: printer.name, paper: printer.paper, html: await renderHtml(document, printer.paper) });
        reachable(true);
        return { ok: true };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        reachable(false, reason);
        options.logger.warn({ printer: printer.id, job: job.id, reason }, 'system print failed');
        return { ok: false, sent: true, retry: false, reason };
      }
    }

    /** what a job puts on paper: an order's tickets and/or receipt, or a shift's report as it was when asked */
    async function documentOf(job: PrintJobRow): Promise<PrintDocument | { reason: string }> {
      if (job.report !== null) return { tickets: [], receipt: undefined, report: reportSlip(job.report, { language: job.language, timeZone }), openDrawer: false };
      if (job.orderId === null || job.what === 'xReport' || job.what === 'zReport') return { reason: 'the job names neither an order nor a shift report' };
      const order = await localizeOrder(ctx, await readOrder(ctx, job.orderId), job.language);
      if (order.status === 'cancelled') return { reason: 'the order was cancelled before it printed' };
      return printDocument(order, { what: job.what, language: job.language, timeZone, openDrawer: job.openDrawer === 1 });
    }

    const wake = () => {
      if (state.wake) state.wake();
      else state.woken = true;
    };
    return { loop, state, wake };
  }

  return {
    printers: options.printers,
    status: async () => {
      const out: Printer[] = [];
      for (const printer of options.printers) {
        const worker = workers.get(printer.id);
        const health = worker?.state.health ?? 'unknown';
        const reason = worker?.state.reason;
        out.push({ id: printer.id, kind: printer.kind, state: health, ...(reason !== undefined && { reason }), queued: await jobs.waiting(printer.id) });
      }
      return out;
    },
    wake: (printer) => workers.get(printer)?.wake(),
    async stop() {
      stopping.abort();
      const grace = setTimeout(() => cutOff.abort(), STOP_GRACE_MS);
      await Promise.all(running);
      clearTimeout(grace);
    },
  };
}
