import { Type, type Static } from 'typebox';
import { Id, LIMITS, Timestamp } from './common';

/** Printing (contract §12): print jobs, the configured printers, the PDF of an order's tickets. */

const strict = { additionalProperties: false } as const;

export const PrintWhat = Type.Union([Type.Literal('tickets'), Type.Literal('receipt'), Type.Literal('all')]);
export type PrintWhat = Static<typeof PrintWhat>;

export const PrintLanguage = Type.Union([Type.Literal('en'), Type.Literal('de'), Type.Literal('fr')]);
export type PrintLanguage = Static<typeof PrintLanguage>;

/** what a job prints: an order's tickets, receipt or both, or a shift's X or Z report (POST /shifts/{id}/print, §14) */
export const PrintJobWhat = Type.Union([PrintWhat, Type.Literal('xReport'), Type.Literal('zReport')]);
export type PrintJobWhat = Static<typeof PrintJobWhat>;

export const PrintJobState = Type.Union([Type.Literal('queued'), Type.Literal('printing'), Type.Literal('done'), Type.Literal('failed')]);
export type PrintJobState = Static<typeof PrintJobState>;

export const PrintBody = Type.Object(
  {
    what: Type.Optional(PrintWhat),
    printer: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'a configured printer (its URL, as in GET /printers); default: the first one' })),
    language: Type.Optional(PrintLanguage),
    ifNotPrinted: Type.Optional(
      Type.Boolean({ description: 'queue only when the order has no print job yet; otherwise answer 200 with its latest job (a kiosk that reloads never prints twice)' }),
    ),
  },
  { ...strict, description: 'every field optional; an empty body or none at all prints everything on the first printer' },
);
export type PrintBody = Static<typeof PrintBody>;

export const PrintJob = Type.Object({
  id: Id,
  code: Type.String({ description: 'a short code a customer shows staff to find this job' }),
  orderId: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.maxIdLength, description: 'the order printed (absent for a shift\'s report)' })),
  shiftId: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.maxIdLength, description: 'the shift whose X or Z report is printed (absent for an order\'s job)' })),
  what: PrintJobWhat,
  printer: Type.String(),
  language: PrintLanguage,
  state: PrintJobState,
  reason: Type.Optional(Type.String({ description: 'why the last attempt failed (queued: still retrying) or why the job failed' })),
  attempts: Type.Integer({ minimum: 0 }),
  openDrawer: Type.Boolean({ description: "the job opens the cash drawer (the first receipt of a cash sale)" }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  printedAt: Type.Optional(Timestamp),
});
export type PrintJob = Static<typeof PrintJob>;

/** POST /shifts/{id}/print: every field optional, an empty body or none at all prints on the first printer in the request's language */
export const ShiftPrintBody = Type.Object(
  {
    printer: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'a configured printer (its URL, as in GET /printers); default: the first one' })),
    language: Type.Optional(PrintLanguage),
  },
  { ...strict, description: 'every field optional; an empty body or none at all prints on the first printer in the request\'s language' },
);
export type ShiftPrintBody = Static<typeof ShiftPrintBody>;

export const PrintJobParams = Type.Object({ jobId: Id });

export const PrintJobsQuery = Type.Object(
  {
    orderId: Type.Optional(Id),
    shiftId: Type.Optional(Id),
    state: Type.Optional(PrintJobState),
    limit: Type.Optional(Type.String({ pattern: '^(?:[1-9]|[1-9][0-9]|1[0-9][0-9]|200)$', description: '1–200, default 50' })),
  },
  strict,
);

export const Printer = Type.Object({
  id: Type.String({ description: 'the printer as configured (--printer URL or the desktop setting)' }),
  kind: Type.Union([Type.Literal('escpos'), Type.Literal('system')]),
  state: Type.Union([Type.Literal('ready'), Type.Literal('down'), Type.Literal('unknown')], { description: 'unknown: not tried yet' }),
  reason: Type.Optional(Type.String()),
  queued: Type.Integer({ minimum: 0, description: 'jobs waiting for this printer' }),
});
export type Printer = Static<typeof Printer>;

export const TicketsPdfQuery = Type.Object({ size: Type.Optional(Type.Union([Type.Literal('a4'), Type.Literal('80mm')], { description: 'default a4' })) }, strict);
