import { randomBytes } from 'node:crypto';
import type { PrintBody, PrintJob, PrintLanguage } from '../contract/printing';
import { EngineError } from '../domain/errors';
import { grants, type Caller } from '../domain/scopes';
import { seesOrderOf } from '../shared/ownership';
import type { PrintJobRow } from '../store/print-job-repo';
import type { Repos } from '../store/port';
import type { Clock, Storage } from '../shared/context';
import { paymentOf } from '../orders/order-view';

/** What the printing use cases need besides the context: the configured printers, first one the default. */
export interface Printing {
  readonly printerIds: readonly string[];
  /** a job was queued: its printer's worker looks at once */
  readonly wake: (printer: string) => void;
}

/**
 * POST /orders/{id}/print (contract §12): queues a job and answers it. It goes to `printer` or else the first
 * configured printer; prints in `language`, or else the language the order was sold in, or else the request's.
 * The first job of a cash order that prints the receipt opens the drawer; a reprint never does.
 * `ifNotPrinted` answers the order's latest job instead when it already has one (`created: false`).
 */
export async function printOrder(ctx: Storage & Clock, printing: Printing, orderId: string, body: PrintBody, requestLanguage: PrintLanguage): Promise<{ job: PrintJob; created: boolean }> {
  const result = await ctx.store.transaction(async (tx) => {
    await tx.locks.order(orderId);
    const order = await tx.orders.get(orderId);
    if (!order) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'orderId' });
    if (order.status === 'cancelled') throw new EngineError('ORDER_NOT_PRINTABLE');
    const [first] = printing.printerIds;
    if (first === undefined) throw new EngineError('PRINTER_NOT_CONFIGURED');
    const printer = body.printer ?? first;
    if (!printing.printerIds.includes(printer)) throw new EngineError('INVALID_FIELD_VALUE', { param: 'printer', details: { printers: printing.printerIds } });
    const latest = body.ifNotPrinted === true ? await tx.printJobs.latestOfOrder(orderId) : undefined;
    if (latest) return { row: latest, created: false };
    const what = body.what ?? 'all';
    const cash = paymentOf(order, await tx.checkout.attemptForOrder(orderId)).method === 'cash';
    const row = await tx.printJobs.insert({
      id: `prj_${randomBytes(12).toString('base64url')}`,
      code: staffCode(),
      orderId,
      what,
      printer,
      language: body.language ?? (await tx.printJobs.languageOf(orderId)) ?? requestLanguage,
      openDrawer: what !== 'tickets' && cash && !(await tx.printJobs.drawerOpened(orderId)) ? 1 : 0,
      createdAt: ctx.now(),
    });
    return { row, created: true };
  });
  if (result.created) printing.wake(result.row.printer);
  return { job: printJobView(result.row), created: result.created };
}

export function printJobView(row: PrintJobRow): PrintJob {
  return {
    id: row.id,
    code: row.code,
    ...(row.orderId !== null && { orderId: row.orderId }),
    ...(row.shiftId !== null && { shiftId: row.shiftId }),
    what: row.what,
    printer: row.printer,
    language: row.language,
    state: row.state,
    ...(row.reason !== null && { reason: row.reason }),
    attempts: row.attempts,
    openDrawer: row.openDrawer === 1,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    ...(row.printedAt !== null && { printedAt: new Date(row.printedAt).toISOString() }),
  };
}

/** GET /print-jobs: newest first, optionally of one order or one shift, or in one state. */
export async function listPrintJobs(jobs: Repos['printJobs'], query: { orderId?: string; shiftId?: string; state?: PrintJob['state']; limit?: string }): Promise<PrintJob[]> {
  const limit = query.limit === undefined ? 50 : Number(query.limit);
  return (await jobs.list({
    ...(query.orderId !== undefined && { orderId: query.orderId }),
    ...(query.shiftId !== undefined && { shiftId: query.shiftId }),
    ...(query.state !== undefined && { state: query.state }),
    limit,
  })).map(printJobView);
}

/**
 * Whether the caller sees a job: an order's job as it sees the order (ownership, issue #22); a shift's report as
 * its report is seen, with orders:read (the box office's, never the kiosk's).
 */
export async function seesPrintJob(ctx: Storage, job: PrintJob, caller: Caller): Promise<boolean> {
  if (job.orderId !== undefined) return seesOrderOf(ctx, job.orderId, caller);
  return grants(caller.scopes, 'orders:read');
}

export async function readPrintJob(jobs: Repos['printJobs'], jobId: string): Promise<PrintJob> {
  const row = await jobs.get(jobId);
  if (!row) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'jobId' });
  return printJobView(row);
}

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A job's staff code: eight characters of Crockford's base32 (no I, L, O, U): short enough to read out to staff. */
export function staffCode(): string {
  return [...randomBytes(8)].map((byte) => ALPHABET[byte % 32]).join('');
}
