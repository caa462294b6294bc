import { randomBytes } from 'node:crypto';
import type { PrintJob, PrintLanguage, ShiftPrintBody } from '../contract/printing';
import { EngineError } from '../domain/errors';
import type { Clock, Storage } from '../shared/context';
import { readShiftReport } from '../shifts/report';
import { printJobView, staffCode, type Printing } from './print-order';

/**
 * POST /shifts/{id}/print (contract §14, §12): queues the shift's report — X while it is open, its Z report once
 * closed — on `printer` or else the first configured printer, in `language` or else the request's, and answers
 * the job (202). The job holds the report as it is now (an X report is the figures of the moment it was asked;
 * a Z report never changes), so it prints the same after a restart. It goes through the one print queue: at most
 * once, retried while the printer cannot be reached, never resent once done; a report never opens the drawer.
 * Each call queues one more job (printing again is asked for on purpose: the box office's "print again").
 */
export async function printShiftReport(ctx: Storage & Clock, printing: Printing, shiftId: string, body: ShiftPrintBody, requestLanguage: PrintLanguage): Promise<PrintJob> {
  const report = await readShiftReport(ctx, shiftId);
  const [first] = printing.printerIds;
  if (first === undefined) throw new EngineError('PRINTER_NOT_CONFIGURED');
  const printer = body.printer ?? first;
  if (!printing.printerIds.includes(printer)) throw new EngineError('INVALID_FIELD_VALUE', { param: 'printer', details: { printers: printing.printerIds } });
  const row = await ctx.store.transaction((tx) =>
    tx.printJobs.insertReport({
      id: `prj_${randomBytes(12).toString('base64url')}`,
      code: staffCode(),
      shiftId,
      what: report.kind === 'Z' ? 'zReport' : 'xReport',
      report,
      printer,
      language: body.language ?? requestLanguage,
      createdAt: ctx.now(),
    }),
  );
  printing.wake(row.printer);
  return printJobView(row);
}
