import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody } from '../../contract/common';
import { PrintJob, ShiftPrintBody } from '../../contract/printing';
import { ShiftParams } from '../../contract/shift';
import { printShiftReport } from '../../printing/print-shift';
import type { Printing } from '../../printing/print-order';
import type { EngineContext } from '../../shared/context';
import { exportShift } from '../../shifts/export-shift';

const tags = ['shifts'];

export interface ShiftOutputRoutesOptions {
  readonly ctx: EngineContext;
  readonly printing: Printing;
}

/** A shift's report out of the engine (design "Export and print"): the zip of CSV files, and its X/Z report printed. Plumbing only. */
export const shiftOutputRoutes: FastifyPluginAsyncTypebox<ShiftOutputRoutesOptions> = async (app, { ctx, printing }) => {
  app.get(
    '/shifts/:shiftId/export',
    {
      config: { scope: 'admin' },
      schema: {
        tags,
        summary: "The shift's journal entries and totals as CSV files in a zip (an open shift: an X export)",
        description: 'Answers 200 with `application/zip` (an attachment, `kassa-shift-<number>.zip`): README.txt (the columns, the format — UTF-8, '
          + 'comma, RFC 4180 quoting, amounts in minor units next to their currency — and what DSFinV-K or NF525 would still need), shift.csv, '
          + 'journal.csv (every entry of the shift with its hashes), orders.csv, cancellations.csv, payments.csv, cash_movements.csv, events.csv. '
          + 'Errors in the envelope.',
        params: ShiftParams,
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'application/zip' }), '4xx': ErrorBody },
      },
    },
    async (request, reply) => {
      const { fileName, bytes } = await exportShift(ctx, request.params.shiftId);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );

  app.post(
    '/shifts/:shiftId/print',
    {
      config: { scope: 'orders:write' },
      schema: {
        tags,
        summary: "Print the shift's report on the receipt printer: X while open, the Z report once closed (queued; 202 with the job)",
        description: 'The job goes through the print queue (§12): it survives a restart, is retried while the printer cannot be reached and is '
          + 'never printed twice once done. Printed in `language`, else the request\'s; ends with a cut; never opens the drawer. '
          + 'No printer configured: 409 PRINTER_NOT_CONFIGURED.',
        params: ShiftParams,
        body: ShiftPrintBody,
        response: { 202: Type.Object({ data: PrintJob }), '4xx': ErrorBody },
      },
      // No body at all means the defaults, as an empty object does.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => reply.code(202).send({ data: await printShiftReport(ctx, printing, request.params.shiftId, request.body, request.language) }),
  );
};
