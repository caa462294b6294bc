import type ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import type { PrintDocument, ReceiptSlip, TicketSlip } from './document';

/**
 * A print document as ESC/POS bytes, through a maintained encoder (@point-of-sale/receipt-printer-encoder),
 * not hand-written escapes: text in the printer's code pages, the ticket code as text and as a QR code
 * (`GS ( k`), a cut (`GS V`) after each ticket and after the receipt, and on the first receipt of a cash sale
 * a drawer kick (`ESC p`) right after it. 58 mm paper has 32 columns, 80 mm paper 48.
 */

export type EscPosPaper = '58mm' | '80mm';

const COLUMNS: Record<EscPosPaper, number> = { '58mm': 32, '80mm': 48 };
/** module size of the QR code in dots: ~25 mm wide on 80 mm paper, ~19 mm on 58 mm */
const QR_SIZE: Record<EscPosPaper, number> = { '58mm': 5, '80mm': 6 };

/** The encoder (and its code page tables) loads with the first ticket printed, not with the engine. */
export async function encodeEscPos(document: PrintDocument, paper: EscPosPaper): Promise<Uint8Array> {
  const { default: Encoder } = await import('@point-of-sale/receipt-printer-encoder');
  const encoder = new Encoder({ language: 'esc-pos', columns: COLUMNS[paper], feedBeforeCut: 4, newline: '\n' });
  encoder.initialize().codepage('auto');
  for (const ticket of document.tickets) ticketSlip(encoder, ticket, paper);
  if (document.receipt) receiptSlip(encoder, document.receipt, COLUMNS[paper]);
  // The drawer opens after the receipt is out, as a cashier expects: GS V then ESC p.
  if (document.openDrawer) encoder.pulse(0, 100, 500);
  return encoder.encode();
}

function ticketSlip(encoder: ReceiptPrinterEncoder, ticket: TicketSlip, paper: EscPosPaper): void {
  encoder.align('center').size(1, 1).line(ticket.heading).bold(true).size(2, 2).line(ticket.title).size(1, 1).bold(false);
  if (ticket.date) encoder.line(ticket.date);
  if (ticket.venue) encoder.line(ticket.venue);
  encoder.newline();
  for (const detail of ticket.details) encoder.line(detail);
  encoder.newline().qrcode(ticket.code, { model: 2, size: QR_SIZE[paper], errorlevel: 'm' }).newline();
  encoder.bold(true).line(ticket.code).bold(false).line(ticket.footer);
  encoder.align('left').cut('partial');
}

function receiptSlip(encoder: ReceiptPrinterEncoder, receipt: ReceiptSlip, columns: number): void {
  const amountWidth = Math.min(14, Math.floor(columns / 3));
  const twoColumns = [
    { width: columns - amountWidth - 1, marginRight: 1, align: 'left' as const },
    { width: amountWidth, align: 'right' as const },
  ];
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
