import type { PrintLanguage } from '../contract/printing';
import type { ShiftReport } from '../contract/shift';
import { fill, formatMoney, formatShortDateTime } from './labels';
import { methodLabel, reportLabelsFor } from './report-labels';

/**
 * A shift's X or Z report as it goes on paper (design "Export and print"): the title, the engine's shift number
 * and the Z number, when it opened and closed, every figure of the report, then expected, counted and the
 * difference (in bold). Every text is in the language the print was asked in; ESC/POS and the system printer's
 * page draw this same slip. A report never opens the drawer.
 */

export interface ReportRow {
  readonly label: string;
  readonly amount: string;
  readonly bold?: boolean;
}

export interface ReportSection {
  readonly title: string;
  readonly rows: readonly ReportRow[];
}

export interface ReportSlip {
  readonly heading: string;
  /** "Shift 3 · Z no. 2", "Opened: …", "Closed: …", "Staff: …" */
  readonly header: readonly string[];
  readonly sections: readonly ReportSection[];
  /** the closing note, or that the shift is still open */
  readonly footer: string | undefined;
}

export interface ReportOptions {
  readonly language: PrintLanguage;
  /** the zone the opening and closing times print in (the venue's) */
  readonly timeZone: string;
}

/** The slip of a shift's report: Z for a closed shift, X for an open one. */
export function reportSlip(report: ShiftReport, options: ReportOptions): ReportSlip {
  const labels = reportLabelsFor(options.language);
  const money = (amount: { amount: number; currency: string }) => formatMoney(amount, options.language);
  const when = (iso: string) => formatShortDateTime(iso, options.language, options.timeZone);
  const { shift, cash } = report;
  const closed = shift.status === 'closed';
  const numbers = [fill(labels.shift, { n: shift.number }), ...(shift.zNumber === undefined ? [] : [fill(labels.zNumber, { n: shift.zNumber })])];
  const drawer: ReportRow[] = [
    { label: labels.openingFloat, amount: money(cash.openingFloat) },
    { label: labels.cashSales, amount: money(cash.sales) },
    { label: labels.cashRefunds, amount: money({ ...cash.refunds, amount: -cash.refunds.amount }) },
    { label: labels.payIns, amount: money(cash.payIns) },
    { label: labels.payOuts, amount: money({ ...cash.payOuts, amount: -cash.payOuts.amount }) },
    { label: labels.expected, amount: money(shift.expected ?? cash.expected), bold: true },
    ...(shift.counted ? [{ label: labels.counted, amount: money(shift.counted) }] : []),
    ...(shift.difference ? [{ label: labels.difference, amount: money(shift.difference), bold: true }] : []),
  ];
  return {
    heading: closed ? labels.zReport : labels.xReport,
    header: [
      numbers.join(' · '),
      `${labels.opened}: ${when(shift.openedAt)}`,
      ...(shift.closedAt === undefined ? [] : [`${labels.closed}: ${when(shift.closedAt)}`]),
      ...(shift.staff === undefined || shift.staff === '' ? [] : [`${labels.staff}: ${shift.staff}`]),
    ],
    sections: [
      {
        title: labels.sales,
        rows: [
          { label: fill(labels.orders, { n: report.orders.count }), amount: money(report.orders.total) },
          { label: fill(labels.cancellations, { n: report.cancellations.count }), amount: money(report.cancellations.total) },
        ],
      },
      { title: labels.payments, rows: report.byMethod.map((row) => ({ label: `${methodLabel(labels, row.method)} (${row.count})`, amount: money(row.total) })) },
      { title: labels.events, rows: report.byEvent.map((row) => ({ label: `${row.name} (${fill(labels.tickets, { n: row.tickets })})`, amount: money(row.total) })) },
      { title: labels.drawer, rows: drawer },
    ].filter((section) => section.rows.length > 0),
    footer: closed ? (shift.note === undefined || shift.note === '' ? undefined : `${labels.note}: ${shift.note}`) : labels.openNote,
  };
}
