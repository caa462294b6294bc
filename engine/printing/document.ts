import type { Order } from '../contract/order';
import type { PrintLanguage, PrintWhat } from '../contract/printing';
import { fill, formatDateTime, formatMoney, formatShortDateTime, labelsFor } from './labels';
import type { ReportSlip } from './report-document';

/**
 * What goes on paper, apart from how a printer is spoken to: one slip per ticket (and per gift card) and a
 * receipt, with every text already in the order's language. ESC/POS, the system printer's page and the PDF
 * all draw this same document.
 */

export interface TicketSlip {
  readonly heading: string;
  readonly title: string;
  readonly date: string | undefined;
  readonly venue: string | undefined;
  /** "Area: Stalls", "Seat: Row A, Seat 1", "Value: €50.00" */
  readonly details: readonly string[];
  /** printed as text, to be typed in: the ticket's 20-character code (a gift card's code) */
  readonly code: string;
  /** what the QR code encodes: the ticket's signed code when it has one (issue #26, contract §15), else `code` */
  readonly qr: string;
  readonly footer: string;
}

export interface ReceiptSlip {
  readonly heading: string;
  readonly venue: string | undefined;
  readonly order: string;
  readonly date: string;
  readonly lines: readonly { readonly label: string; readonly amount: string }[];
  readonly total: { readonly label: string; readonly amount: string };
  readonly payment: readonly { readonly label: string; readonly amount: string }[];
  readonly status: string | undefined;
  readonly footer: string;
}

export interface PrintDocument {
  readonly tickets: readonly TicketSlip[];
  readonly receipt: ReceiptSlip | undefined;
  /** a shift's X or Z report (a job of a shift has nothing else: report-document.ts) */
  readonly report?: ReportSlip | undefined;
  readonly openDrawer: boolean;
}

export interface DocumentOptions {
  readonly what: PrintWhat;
  readonly language: PrintLanguage;
  readonly timeZone: string;
  readonly openDrawer: boolean;
}

export function printDocument(order: Order, options: DocumentOptions): PrintDocument {
  const withTickets = options.what !== 'receipt';
  const withReceipt = options.what !== 'tickets';
  return {
    tickets: withTickets ? ticketSlips(order, options) : [],
    receipt: withReceipt ? receiptSlip(order, options) : undefined,
    openDrawer: withReceipt && options.openDrawer,
  };
}

export function ticketSlips(order: Order, options: Pick<DocumentOptions, 'language' | 'timeZone'>): TicketSlip[] {
  const labels = labelsFor(options.language);
  const count = order.tickets.length;
  const names = new Map(order.items.map((item) => [item.id, item.name]));
  // the venue's clock: its location's time zone from the catalog, else the zone this engine prints in
  const date = order.event && formatDateTime(order.event.startsAt, options.language, order.event.location.timeZone ?? options.timeZone);
  const tickets = order.tickets.map((ticket, index): TicketSlip => ({
    heading: labels.ticket,
    title: order.event?.name ?? names.get(ticket.itemId) ?? labels.ticket,
    date,
    venue: order.event?.location.name,
    details: [
      names.get(ticket.itemId) ?? '',
      ticket.area === undefined ? '' : `${labels.area}: ${ticket.area}`,
      ticket.seat === undefined ? '' : `${labels.seat}: ${ticket.seat}`,
      fill(labels.ticketOf, { n: index + 1, count }),
    ].filter((line) => line !== ''),
    code: ticket.code,
    qr: ticket.signedCode ?? ticket.code,
    footer: `${labels.order} ${order.id}`,
  }));
  const cards = order.giftCards.map((card): TicketSlip => ({
    heading: labels.giftCard,
    title: order.event?.name ?? labels.giftCard,
    date: undefined,
    venue: order.event?.location.name,
    details: [`${labels.value}: ${formatMoney(card.value, options.language)}`],
    code: card.code,
    qr: card.code,
    footer: `${labels.order} ${order.id}`,
  }));
  return [...tickets, ...cards];
}

/**
 * A gift card's code as a receipt prints it: its last 4 characters, the rest hidden (`****ABCD`). A short code (a
 * terminal's import may bring one) shows at most half of it, so a receipt never prints a whole code.
 */
export function maskCode(code: string): string {
  const shown = Math.min(4, Math.floor(code.length / 2));
  return `****${shown === 0 ? '' : code.slice(-shown)}`;
}

function receiptSlip(order: Order, options: DocumentOptions): ReceiptSlip {
  const labels = labelsFor(options.language);
  const money = (amount: { amount: number; currency: string }) => formatMoney(amount, options.language);
  const payment = order.payment;
  const paid = payment.method === 'cash' ? labels.paidCash : payment.method === 'card' ? labels.paidCard : payment.method === 'giftCard' ? labels.paidGiftCard : labels.paidExternal;
  // each gift-card part (issue #24): the code masked to its last 4, what it took, and what was left on it right after
  const cards = (payment.giftCards ?? []).flatMap((part) => [
    { label: `${labels.giftCard} ${maskCode(part.code)}`, amount: money(part.amount) },
    ...(part.balanceAfter ? [{ label: labels.balanceLeft, amount: money(part.balanceAfter) }] : []),
  ]);
  return {
    heading: labels.receipt,
    venue: order.event?.location.name,
    order: `${labels.order} ${order.id}`,
    date: formatShortDateTime(order.createdAt, options.language, order.event?.location.timeZone ?? options.timeZone),
    lines: order.receiptLines.map((line) => ({ label: line.label, amount: money({ amount: line.sign * line.amount.amount, currency: line.amount.currency }) })),
    total: { label: labels.total, amount: money(order.total) },
    // gift cards paid it all: that first, then each card; otherwise the cards' parts, then what the method took
    payment: [
      ...(payment.method === 'giftCard' ? [{ label: paid, amount: money(payment.amount) }, ...cards] : [...cards, { label: paid, amount: money(payment.amount) }]),
      ...(payment.tendered ? [{ label: labels.tendered, amount: money(payment.tendered) }] : []),
      ...(payment.change ? [{ label: labels.change, amount: money(payment.change) }] : []),
      ...(payment.status === 'refunded' ? [{ label: labels.refunded, amount: money(payment.amount) }] : []),
    ],
    status: order.status === 'cancelled' ? labels.cancelled : undefined,
    footer: labels.thanks,
  };
}
