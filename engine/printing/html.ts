import type QRCodes from 'qrcode';
import { slices } from '../shared/time-slices';
import type { PrintDocument, ReceiptSlip, TicketSlip } from './document';
import type { ReportSlip } from './report-document';

/**
 * A print document as one HTML page for an operating-system printer (the desktop app prints it silently):
 * each ticket and the receipt on a page of its own, sized for the paper, so a roll printer cuts between them.
 */

const WIDTH_MM = { '58mm': 58, '80mm': 80, a4: 210 } as const;

export async function renderHtml(document: PrintDocument, paper: keyof typeof WIDTH_MM): Promise<string> {
  // qrcode loads with the first page printed, not with the engine (see pdf.ts).
  const { default: QRCode } = await import('qrcode');
  // one ticket's page at a time, in slices (shared/time-slices.ts): a thousand QR codes are seconds of work
  const tickets: string[] = [];
  const clock = slices();
  for (const ticket of document.tickets) {
    tickets.push(await ticketPage(QRCode, ticket));
    await clock.breathe();
  }
  const pages = [...tickets, ...(document.receipt ? [receiptPage(document.receipt)] : []), ...(document.report ? [reportPage(document.report)] : [])];
  const width = WIDTH_MM[paper];
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"><title>Kassa</title><style>
@page { size: ${paper === 'a4' ? 'A4' : `${width}mm auto`}; margin: ${paper === 'a4' ? '15mm' : '3mm'}; }
body { font: 10pt/1.35 sans-serif; margin: 0; color: #000; }
section { page-break-after: always; break-after: page; text-align: center; max-width: ${paper === 'a4' ? '120mm' : `${width - 6}mm`}; margin: 0 auto; }
h1 { font-size: 16pt; margin: 2mm 0; } h2 { font-size: 11pt; margin: 1mm 0; font-weight: normal; }
.qr svg { width: 35mm; height: 35mm; } .code { font: bold 12pt monospace; }
table { width: 100%; border-collapse: collapse; text-align: left; } td.amount { text-align: right; white-space: nowrap; }
tr.total td { font-weight: bold; border-top: 1px solid #000; }
</style></head><body>${pages.join('')}</body></html>`;
}

async function ticketPage(QRCode: typeof QRCodes, ticket: TicketSlip): Promise<string> {
  const qr = await QRCode.toString(ticket.qr, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return `<section><h2>${esc(ticket.heading)}</h2><h1>${esc(ticket.title)}</h1>${ticket.date ? `<p>${esc(ticket.date)}</p>` : ''}${
    ticket.venue ? `<p>${esc(ticket.venue)}</p>` : ''
  }${ticket.details.map((line) => `<p>${esc(line)}</p>`).join('')}<div class="qr">${qr}</div><p class="code">${esc(ticket.code)}</p><p>${esc(ticket.footer)}</p></section>`;
}

function receiptPage(receipt: ReceiptSlip): string {
  const row = (label: string, amount: string, css = '') => `<tr class="${css}"><td>${esc(label)}</td><td class="amount">${esc(amount)}</td></tr>`;
  return `<section><h1>${esc(receipt.heading)}</h1>${receipt.venue ? `<p>${esc(receipt.venue)}</p>` : ''}<p>${esc(receipt.order)}<br>${esc(receipt.date)}</p>${
    receipt.status ? `<p><strong>${esc(receipt.status)}</strong></p>` : ''
  }<table>${receipt.lines.map((line) => row(line.label, line.amount)).join('')}${row(receipt.total.label, receipt.total.amount, 'total')}${receipt.payment
    .map((line) => row(line.label, line.amount))
    .join('')}</table><p>${esc(receipt.footer)}</p></section>`;
}

function reportPage(report: ReportSlip): string {
  const row = (label: string, amount: string, bold: boolean | undefined) => `<tr class="${bold === true ? 'total' : ''}"><td>${esc(label)}</td><td class="amount">${esc(amount)}</td></tr>`;
  return `<section><h1>${esc(report.heading)}</h1><p>${report.header.map(esc).join('<br>')}</p>${report.sections
    .map((section) => `<h2>${esc(section.title)}</h2><table>${section.rows.map((line) => row(line.label, line.amount, line.bold)).join('')}</table>`)
    .join('')}${report.footer === undefined ? '' : `<p>${esc(report.footer)}</p>`}</section>`;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
