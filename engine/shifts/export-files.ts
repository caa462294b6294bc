import { csvFile, type CsvValue } from './csv';
import { asMoney, field, payments, paymentsField, text, ticketCount } from './export-data';
import type { ShiftReport } from '../contract/shift';
import { canonicalJson, type JournalEntry } from '../domain/journal';
import type { Money } from '../domain/money';

/**
 * The CSV files of a shift's export (design "Export and print"), built from its report and its journal
 * entries: nothing else is read, so the files say what the journal says. Every amount is an integer in minor
 * units next to a column naming its currency. README.txt (export-readme.ts) names each column; the headers
 * here are the single place they are spelled.
 */

export const SHIFT_COLUMNS = [
  'shift_id', 'number', 'status', 'report', 'z_number', 'opened_at', 'closed_at', 'staff', 'currency', 'opening_float',
  'orders_count', 'orders_total', 'cancellations_count', 'cancellations_total', 'cash_sales', 'cash_refunds', 'pay_ins',
  'pay_outs', 'expected', 'counted', 'difference', 'note', 'first_seq', 'last_seq', 'last_hash',
] as const;
export const JOURNAL_COLUMNS = ['seq', 'at', 'kind', 'ref', 'amount', 'currency', 'prev_hash', 'hash', 'data'] as const;
export const ORDER_COLUMNS = ['seq', 'at', 'order_id', 'total', 'currency', 'base_total', 'base_currency', 'tickets', 'payments'] as const;
export const CANCELLATION_COLUMNS = ['seq', 'at', 'order_id', 'amount', 'currency', 'base_total', 'base_currency', 'refunds'] as const;
export const PAYMENT_COLUMNS = ['method', 'currency', 'count', 'total'] as const;
export const CASH_MOVEMENT_COLUMNS = ['seq', 'at', 'movement_id', 'kind', 'amount', 'currency', 'reason'] as const;
export const EVENT_COLUMNS = ['event_id', 'name', 'tickets', 'total', 'currency'] as const;

export type ExportFiles = Readonly<Record<string, string>>;

/** The CSV files of one shift's export, by file name (README.txt is added by the zip: export-zip.ts). */
export function exportFiles(report: ShiftReport, entries: readonly JournalEntry[]): ExportFiles {
  const sorted = [...entries].sort((a, b) => a.seq - b.seq);
  const ofKind = (...kinds: string[]) => sorted.filter((entry) => kinds.includes(entry.kind));
  return {
    'shift.csv': csvFile(SHIFT_COLUMNS, [shiftRow(report, sorted)]),
    'journal.csv': csvFile(JOURNAL_COLUMNS, sorted.map(journalRow)),
    'orders.csv': csvFile(ORDER_COLUMNS, ofKind('order').map(orderRow)),
    'cancellations.csv': csvFile(CANCELLATION_COLUMNS, ofKind('cancellation').map(cancellationRow)),
    'payments.csv': csvFile(PAYMENT_COLUMNS, report.byMethod.map((row) => [row.method, row.currency, row.count, row.total.amount])),
    'cash_movements.csv': csvFile(CASH_MOVEMENT_COLUMNS, ofKind('payIn', 'payOut').map(movementRow)),
    'events.csv': csvFile(EVENT_COLUMNS, report.byEvent.map((row) => [row.eventId, row.name, row.tickets, row.total.amount, row.total.currency])),
  };
}

function shiftRow(report: ShiftReport, entries: readonly JournalEntry[]): CsvValue[] {
  const { shift, cash } = report;
  const amount = (money: Money | undefined) => money?.amount;
  const last = entries.at(-1);
  return [
    shift.id, shift.number, shift.status, report.kind, shift.zNumber, shift.openedAt, shift.closedAt, shift.staff, shift.openingFloat.currency,
    shift.openingFloat.amount, report.orders.count, report.orders.total.amount, report.cancellations.count, report.cancellations.total.amount,
    cash.sales.amount, cash.refunds.amount, cash.payIns.amount, cash.payOuts.amount, cash.expected.amount,
    amount(shift.counted), amount(shift.difference), shift.note, entries[0]?.seq, last?.seq, last?.hash,
  ];
}

function journalRow(entry: JournalEntry): CsvValue[] {
  return [entry.seq, entry.at, entry.kind, entry.ref, entry.amount?.amount, entry.amount?.currency, entry.prevHash, entry.hash, canonicalJson(entry.data)];
}

function orderRow(entry: JournalEntry): CsvValue[] {
  const base = asMoney(field(entry.data, 'baseTotal'));
  return [
    entry.seq, entry.at, text(entry.data, 'orderId') ?? entry.ref, entry.amount?.amount, entry.amount?.currency ?? text(entry.data, 'currency'),
    base?.amount, base?.currency, ticketCount(entry.data), paymentsField(payments(entry.data, 'payments')),
  ];
}

function cancellationRow(entry: JournalEntry): CsvValue[] {
  const base = asMoney(field(entry.data, 'baseTotal'));
  return [
    entry.seq, entry.at, text(entry.data, 'orderId') ?? entry.ref, entry.amount?.amount, entry.amount?.currency,
    base?.amount, base?.currency, paymentsField(payments(entry.data, 'refunds')),
  ];
}

function movementRow(entry: JournalEntry): CsvValue[] {
  return [entry.seq, entry.at, entry.ref, entry.kind, entry.amount?.amount, entry.amount?.currency, text(entry.data, 'reason')];
}
