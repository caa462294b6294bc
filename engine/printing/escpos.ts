import type ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { slices } from '../shared/time-slices';
import type { PrintDocument, ReceiptSlip, TicketSlip } from './document';
import type { ReportSlip } from './report-document';

/**
 * A print document as ESC/POS bytes, through a maintained encoder (@point-of-sale/receipt-printer-encoder),
 * not hand-written escapes: text in the printer's code pages, the ticket code as text and as a QR code
 * (`GS ( k`), a cut (`GS V`) after each ticket and after the receipt, and on the first receipt of a cash sale
 * a drawer kick (`ESC p`) right after it. 58 mm paper has 32 columns, 80 mm paper 48.
 */

export type EscPosPaper = '58mm' | '80mm';

const COLUMNS: Record<EscPosPaper, number> = { '58mm': 32, '80mm': 48 };
/**
 * Module size of the QR code in dots (203 dpi: 8 dots a millimetre). A 20-character code is a version 2 symbol
 * (25 modules: ~19 mm on 80 mm paper); a signed code (issue #26, ~230–300 characters, error level M, model 2) is a
 * version 11–13 symbol (61–69 modules): 6 dots a module is ≤ 414 dots (~52 mm) of the 576-dot line of 80 mm paper, and
 * 5 dots ≤ 345 dots (~43 mm) of the 384-dot line of 58 mm paper — both with room for the quiet zone, and modules of
 * 0.75 / 0.625 mm, which phone cameras and hand scanners read.
 */
export const QR_SIZE: Readonly<Record<EscPosPaper, number>> = { '58mm': 5, '80mm': 6 };
/** the printable line of each paper, in dots */
export const LINE_DOTS: Readonly<Record<EscPosPaper, number>> = { '58mm': 384, '80mm': 576 };

/**
 * The encoder (and its code page tables) loads with the first ticket printed, not with the engine.
 *
 * In slices (issue #22): the encoder picks a code page for every character of every text (see plainLine for
 * what that cost), and its `encode()` slows down with the length of what it holds: a thousand-ticket order was
 * 10–40 s of one synchronous call. So each slip is encoded on its own right after its cut — the encoder keeps its state (code
 * page, styles) from one `encode()` to the next, and after a cut nothing is pending, so the pieces put together
 * are the bytes one `encode()` of the whole document wrote (golden files pin them) — and the event loop gets a
 * turn whenever a slice has taken its time (shared/time-slices.ts).
 */
export async function encodeEscPos(document: PrintDocument, paper: EscPosPaper): Promise<Uint8Array> {
  const { default: Encoder } = await import('@point-of-sale/receipt-printer-encoder');
  const encoder = new Encoder({ language: 'esc-pos', columns: COLUMNS[paper], feedBeforeCut: 4, newline: '\n' });
  encoder.initialize().codepage('auto');
  const clock = slices();
  const pieces: Uint8Array[] = [];
  for (const ticket of document.tickets) {
    ticketSlip(encoder, ticket, paper);
    pieces.push(encoder.encode());
    await clock.breathe();
  }
  if (document.receipt) receiptSlip(encoder, document.receipt, COLUMNS[paper]);
  if (document.report) reportSlip(encoder, document.report, COLUMNS[paper]);
  // The drawer opens after the receipt is out, as a cashier expects: GS V then ESC p.
  if (document.openDrawer) encoder.pulse(0, 100, 500);
  pieces.push(encoder.encode());
  return Buffer.concat(pieces);
}

function ticketSlip(encoder: ReceiptPrinterEncoder, ticket: TicketSlip, paper: EscPosPaper): void {
  const line = (text: string) => plainLine(encoder, text);
  encoder.align('center').size(1, 1);
  line(ticket.heading);
  encoder.bold(true).size(2, 2);
  line(ticket.title);
  encoder.size(1, 1).bold(false);
  if (ticket.date) line(ticket.date);
  if (ticket.venue) line(ticket.venue);
  encoder.newline();
  for (const detail of ticket.details) line(detail);
  encoder.newline().qrcode(ticket.qr, { model: 2, size: QR_SIZE[paper], errorlevel: 'm' }).newline();
  encoder.bold(true);
  line(ticket.code);
  encoder.bold(false);
  line(ticket.footer);
  encoder.align('left').cut('partial');
}

/** the printer's first code page, where the encoder's automatic choice puts every text of printable ASCII */
const ASCII_PAGE = 'cp437';
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * A line of a ticket on a line of its own. The encoder's automatic code page choice costs a lookup of a whole
 * code page table per character (most of a ticket's encoding time); for a text of printable ASCII — codes,
 * seats, "Ticket 12 of 1000", most titles — its choice is known: the first code page of the printer's table
 * (cp437 in the Epson table the encoder defaults to), the one the text is then given outright, looked up once
 * per text. The bytes are the same (the code page command is sent in both cases only when the printer is on
 * another page; golden files pin them); any other text keeps the automatic choice.
 */
function plainLine(encoder: ReceiptPrinterEncoder, text: string): void {
  if (!PRINTABLE_ASCII.test(text)) {
    encoder.line(text);
    return;
  }
  encoder.codepage(ASCII_PAGE).line(text).codepage('auto');
}

/** a label on the left, an amount on the right */
function twoColumnsOf(columns: number) {
  const amountWidth = Math.min(14, Math.floor(columns / 3));
  return [
    { width: columns - amountWidth - 1, marginRight: 1, align: 'left' as const },
    { width: amountWidth, align: 'right' as const },
  ];
}

function receiptSlip(encoder: ReceiptPrinterEncoder, receipt: ReceiptSlip, columns: number): void {
  const twoColumns = twoColumnsOf(columns);
  encoder.align('center').bold(true).size(2, 2).line(receipt.heading).size(1, 1).bold(false);
  if (receipt.venue) encoder.line(receipt.venue);
  encoder.line(receipt.order).line(receipt.date);
  if (receipt.status) encoder.bold(true).line(receipt.status).bold(false);
  encoder.align('left').rule();
  encoder.table(twoColumns, receipt.lines.map((line) => [line.label, line.amount]));
  encoder.rule();
  encoder.bold(true).table(twoColumns, [[receipt.total.label, receipt.total.amount]]).bold(false);
  encoder.table(twoColumns, receipt.payment.map((line) => [line.label, line.amount]));
  encoder.newline().align('center').line(receipt.footer).align('left');
  encoder.cut('partial');
}

/** A shift's X or Z report: the title large, the shift's numbers and times, each section under a rule, then a cut. */
function reportSlip(encoder: ReceiptPrinterEncoder, report: ReportSlip, columns: number): void {
  const twoColumns = twoColumnsOf(columns);
  encoder.align('center').bold(true).size(2, 2).line(report.heading).size(1, 1).bold(false);
  for (const line of report.header) encoder.line(line);
  encoder.align('left');
  for (const section of report.sections) {
    encoder.rule().bold(true).line(section.title).bold(false);
    for (const row of section.rows) {
      if (row.bold === true) encoder.bold(true);
      encoder.table(twoColumns, [[row.label, row.amount]]);
      if (row.bold === true) encoder.bold(false);
    }
  }
  encoder.rule();
  if (report.footer !== undefined) encoder.line(report.footer);
  encoder.cut('partial');
}
