import type QRCodes from 'qrcode';
import { slices } from '../shared/time-slices';
import type { TicketSlip } from './document';

/**
 * The order's tickets as a PDF, for a venue without a ticket printer (contract §12 extension): `a4` puts
 * three tickets on a page with cut lines, `80mm` one ticket per page of a thermal roll's width. Each ticket
 * carries the same text as the printed one and its code as text and as a vector QR code.
 *
 * Drawn in slices (issue #22): a ticket's text and QR code take ~1–4 ms, so a thousand-ticket order is seconds
 * of work; the event loop gets a turn whenever a slice has taken its time (shared/time-slices.ts). pdfkit
 * writes each page out when the next one starts, so the pages drawn so far wait in memory as compressed
 * chunks, not as drawing commands.
 */

export type PdfSize = 'a4' | '80mm';

const MM = 72 / 25.4;

type QrCodes = typeof QRCodes;

/**
 * pdfkit (with its fonts, fontkit and compression) and qrcode load with the first PDF, not with the engine: they
 * take ~0.2 s to load, which every start would pay for a feature most venues never use.
 */
const libraries = async () => {
  const [pdfkit, qrcode] = await Promise.all([import('pdfkit'), import('qrcode')]);
  return { PDFDocument: pdfkit.default, QRCode: qrcode.default };
};

export async function ticketsPdf(tickets: readonly TicketSlip[], size: PdfSize, meta: { title: string; createdAt: Date }): Promise<Buffer> {
  const { PDFDocument, QRCode } = await libraries();
  const doc = new PDFDocument({
    autoFirstPage: false,
    size: size === 'a4' ? 'A4' : [80 * MM, 140 * MM],
    margin: size === 'a4' ? 15 * MM : 5 * MM,
    info: { Title: meta.title, Creator: 'Kassa', CreationDate: meta.createdAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  if (size === 'a4') await a4(doc, QRCode, tickets);
  else await roll(doc, QRCode, tickets);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

const PER_PAGE = 3;

async function a4(doc: PDFKit.PDFDocument, QRCode: QrCodes, tickets: readonly TicketSlip[]): Promise<void> {
  const margin = 15 * MM;
  const clock = slices();
  for (const [index, ticket] of tickets.entries()) {
    const slot = index % PER_PAGE;
    if (slot === 0) doc.addPage();
    const width = doc.page.width - 2 * margin;
    const height = (doc.page.height - 2 * margin) / PER_PAGE;
    const top = margin + slot * height;
    doc.save().rect(margin, top + 4, width, height - 8).dash(4, { space: 3 }).lineWidth(0.5).stroke('#777').restore();
    const qrSize = Math.min(height - 40, 45 * MM);
    const textWidth = width - qrSize - 40;
    slipText(doc, ticket, margin + 14, top + 18, textWidth, 'left');
    drawQr(doc, QRCode, ticket.qr, margin + width - qrSize - 14, top + (height - qrSize) / 2, qrSize);
    await clock.breathe();
  }
  if (tickets.length === 0) doc.addPage();
}

async function roll(doc: PDFKit.PDFDocument, QRCode: QrCodes, tickets: readonly TicketSlip[]): Promise<void> {
  const clock = slices();
  for (const ticket of tickets) {
    doc.addPage();
    const margin = 5 * MM;
    const width = doc.page.width - 2 * margin;
    const qrSize = 40 * MM;
    const y = slipText(doc, ticket, margin, margin, width, 'center', false);
    drawQr(doc, QRCode, ticket.qr, (doc.page.width - qrSize) / 2, y + 6, qrSize);
    doc.font('Courier-Bold').fontSize(12).text(ticket.code, margin, y + qrSize + 12, { width, align: 'center' });
    doc.font('Helvetica').fontSize(8).text(ticket.footer, { width, align: 'center' });
    await clock.breathe();
  }
  if (tickets.length === 0) doc.addPage();
}

/** The ticket's words; answers the y below them. */
function slipText(doc: PDFKit.PDFDocument, ticket: TicketSlip, x: number, y: number, width: number, align: 'left' | 'center', withCode = true): number {
  const options = { width, align };
  doc.font('Helvetica').fontSize(9).fillColor('#000').text(ticket.heading.toUpperCase(), x, y, options);
  doc.font('Helvetica-Bold').fontSize(16).text(ticket.title, options);
  doc.font('Helvetica').fontSize(10);
  if (ticket.date) doc.text(ticket.date, options);
  if (ticket.venue) doc.text(ticket.venue, options);
  doc.moveDown(0.4);
  for (const detail of ticket.details) doc.text(detail, options);
  if (withCode) {
    doc.moveDown(0.4).font('Courier-Bold').fontSize(13).text(ticket.code, options);
    doc.font('Helvetica').fontSize(8).text(ticket.footer, options);
  }
  return doc.y;
}

/** A QR code drawn as filled squares (vector, sharp at any zoom), quiet zone included. */
function drawQr(doc: PDFKit.PDFDocument, QRCode: QrCodes, text: string, x: number, y: number, size: number): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const count = modules.size + 8; // four modules of quiet zone each side
  const cell = size / count;
  doc.save().fillColor('#000');
  for (let row = 0; row < modules.size; row += 1) {
    let run = -1;
    for (let col = 0; col <= modules.size; col += 1) {
      const dark = col < modules.size && modules.get(row, col) === 1;
      if (dark && run < 0) run = col;
      if (!dark && run >= 0) {
        doc.rect(x + (run + 4) * cell, y + (row + 4) * cell, (col - run) * cell, cell);
        run = -1;
      }
    }
  }
  doc.fill().restore();
}
