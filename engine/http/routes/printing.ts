import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, replies } from '../../contract/common';
import { EngineError } from '../../domain/errors';
import { OrderParams } from '../../contract/order';
import { PrintBody, PrintJob, PrintJobParams, PrintJobsQuery, Printer, TicketsPdfQuery } from '../../contract/printing';
import { ticketSlips } from '../../printing/document';
import { ticketsPdf } from '../../printing/pdf';
import { readOrder } from '../../orders/read-order';
import type { EngineContext } from '../../shared/context';
import { listPrintJobs, printOrder, readPrintJob, seesPrintJob, type Printing } from '../../printing/print-order';
import { localizeOrder } from '../../shared/localize';

const tags = ['printing'];
// the kiosk's orders:checkout prints and reads its own orders (http/ownership.ts hides other keys' orders)
const write = { scope: ['orders:write', 'orders:checkout'] } as const;
const read = { scope: 'orders:read' } as const;
const readOwn = { scope: ['orders:read', 'orders:checkout'] } as const;

export interface PrintingRoutesOptions {
  readonly ctx: EngineContext;
  readonly printing: Printing;
  readonly printers: () => Promise<Printer[]>;
  /** the zone dates print in */
  readonly timeZone: string;
}

export const printingRoutes: FastifyPluginAsyncTypebox<PrintingRoutesOptions> = async (app, { ctx, printing, printers, timeZone }) => {
  app.post(
    '/orders/:orderId/print',
    {
      config: write,
      schema: {
        tags,
        summary: 'Print the tickets and/or the receipt of an order (queued; 202 with the job)',
        params: OrderParams,
        body: PrintBody,
        response: { 202: Type.Object({ data: PrintJob }), ...replies(200, PrintJob) },
      },
      // No body at all means the defaults, as an empty object does.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { job, created } = await printOrder(ctx, printing, request.params.orderId, request.body, request.language);
      return reply.code(created ? 202 : 200).send({ data: job });
    },
  );

  app.get(
    '/print-jobs',
    { config: read, schema: { tags, summary: 'Print jobs, newest first, with their state', querystring: PrintJobsQuery, response: { 200: Type.Object({ data: Type.Array(PrintJob) }), '4xx': ErrorBody } } },
    async (request) => ({ data: await listPrintJobs(ctx.store.repos.printJobs, request.query) }),
  );

  app.get('/print-jobs/:jobId', { config: readOwn, schema: { tags, summary: 'One print job', params: PrintJobParams, response: replies(200, PrintJob) } }, async (request) => {
    const job = await readPrintJob(ctx.store.repos.printJobs, request.params.jobId);
    // a job of another key's order is not found, as the order is not (nor a shift's report by a kiosk)
    const caller = request.caller;
    if (caller && !(await seesPrintJob(ctx, job, caller))) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'jobId' });
    return { data: job };
  });

  app.get('/printers', { config: readOwn, schema: { tags, summary: 'The configured printers: ready, down (and why) or not tried yet', response: { 200: Type.Object({ data: Type.Array(Printer) }) } } }, async () => ({
    data: await printers(),
  }));

  app.get(
    '/orders/:orderId/tickets.pdf',
    {
      config: readOwn,
      schema: {
        tags,
        summary: "The order's tickets as a PDF (A4, three to a page, or 80 mm, one per page)",
        params: OrderParams,
        querystring: TicketsPdfQuery,
        description: 'Answers 200 with `application/pdf` (an attachment); errors in the envelope.',
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'application/pdf' }), '4xx': ErrorBody },
      },
    },
    async (request, reply) => {
      const sold = await readOrder(ctx, request.params.orderId);
      if (sold.status === 'cancelled') throw new EngineError('ORDER_NOT_PRINTABLE');
      const language = (await ctx.store.repos.printJobs.languageOf(sold.id)) ?? request.language;
      const order = await localizeOrder(ctx, sold, language);
      const size = request.query.size ?? 'a4';
      const pdf = await ticketsPdf(ticketSlips(order, { language, timeZone }), size, { title: `${order.event?.name ?? 'Kassa'} — ${order.id}`, createdAt: new Date(order.createdAt) });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="tickets-${order.id.replace(/[^\w-]/g, '')}-${size}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );
};
