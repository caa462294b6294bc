import type { Money, ShiftReport } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { formatDateTime, formatMoney } from '../../format';
import { methodName, type ShiftTranslate } from '../../i18n/shifts';

interface Props {
  t: ShiftTranslate;
  locale: string;
  /** the venue's IANA time zone (its clock), else this computer's */
  timeZone?: string | undefined;
  report: ShiftReport;
  /** the heading's level: 2 on its own screen, 3 inside the manager's list */
  level?: 2 | 3;
}

/**
 * A shift's report as the engine answers it: the Z report of a closed shift (frozen at its close) or the X report
 * of the open one. `Expected`, `Counted` and `Difference` (in large type) first, then every figure of the report:
 * sales and cancellations, per payment method, per event, and the drawer's cash. Nothing is added up here.
 */
export function ShiftReportView({ t, locale, timeZone, report, level = 2 }: Props) {
  const { shift, cash } = report;
  const closed = report.kind === 'Z';
  const money = (value: Money) => formatMoney(value, locale);
  const when = (iso: string) => formatDateTime(iso, locale, timeZone);
  const id = `report-${shift.id}`;
  const Heading = level === 2 ? 'h2' : 'h3';
  const Sub = level === 2 ? 'h3' : 'h4';
  return (
    <article className="shift-report" aria-labelledby={`${id}-heading`}>
      <div className="report-main">
        <Heading id={`${id}-heading`}>{t(closed ? 'report.z' : 'report.x')}</Heading>
        <p className="shift-id">
          {t('report.shift', { number: shift.number })}
          {shift.zNumber !== undefined && <> · {t('report.zNumber', { number: shift.zNumber })}</>}
        </p>
        <Figures
          id={`${id}-times`}
          rows={[
            ['opened', t('report.opened'), when(shift.openedAt)],
            ...(shift.closedAt ? [['closed', t('report.closed'), when(shift.closedAt)] as const] : []),
            ...(shift.staff ? [['staff', t('report.staff'), shift.staff] as const] : []),
          ]}
        />
        <dl className="z-figures">
          <Figure id={`${id}-expected`} label={t('report.expected')} value={money(shift.expected ?? cash.expected)} />
          {shift.counted && <Figure id={`${id}-counted`} label={t('report.counted')} value={money(shift.counted)} />}
          {shift.difference && (
            <Figure
              id={`${id}-difference`}
              className={`difference ${shift.difference.amount < 0 ? 'is-short' : shift.difference.amount > 0 ? 'is-over' : 'is-even'}`}
              label={t('report.difference')}
              value={`${shift.difference.amount > 0 ? '+' : ''}${money(shift.difference)}`}
            />
          )}
        </dl>
        {shift.note && (
          <p className="shift-note">
            {t('report.note')}: {shift.note}
          </p>
        )}
      </div>
      <div className="report-details">
        <section aria-labelledby={`${id}-sales`}>
          <Sub id={`${id}-sales`}>{t('report.sales')}</Sub>
          <Figures
            id={`${id}-totals`}
            rows={[
              ['orders', t('report.orders'), t('report.countTotal', { count: report.orders.count, total: money(report.orders.total) })],
              ['cancellations', t('report.cancellations'), t('report.countTotal', { count: report.cancellations.count, total: money(report.cancellations.total) })],
            ]}
          />
        </section>
        <section aria-labelledby={`${id}-methods`}>
          <Sub id={`${id}-methods`}>{t('report.byMethod')}</Sub>
          {report.byMethod.length === 0 ? (
            <p className="hint">{t('report.none')}</p>
          ) : (
            <DataTable
              className="report-table"
              rows={report.byMethod}
              rowKey={(row) => `${row.method}-${row.total.currency}`}
              columns={[
                { heading: t('report.method'), cell: (row) => methodName(t, row.method) },
                { heading: t('report.count'), cell: (row) => row.count, className: 'number' },
                { heading: t('report.total'), cell: (row) => money(row.total), className: 'number' },
              ]}
            />
          )}
        </section>
        <section aria-labelledby={`${id}-events`}>
          <Sub id={`${id}-events`}>{t('report.byEvent')}</Sub>
          {report.byEvent.length === 0 ? (
            <p className="hint">{t('report.none')}</p>
          ) : (
            <DataTable
              className="report-table"
              rows={report.byEvent}
              rowKey={(row) => row.eventId}
              columns={[
                { heading: t('report.event'), cell: (row) => row.name },
                { heading: t('report.tickets'), cell: (row) => row.tickets, className: 'number' },
                { heading: t('report.total'), cell: (row) => money(row.total), className: 'number' },
              ]}
            />
          )}
        </section>
        <section aria-labelledby={`${id}-cash`}>
          <Sub id={`${id}-cash`}>{t('report.cash')}</Sub>
          <Figures
            id={`${id}-drawer`}
            rows={[
              ['float', t('report.openingFloat'), money(cash.openingFloat)],
              ['sales', t('report.cashSales'), money(cash.sales)],
              ['refunds', t('report.cashRefunds'), money(cash.refunds)],
              ['pay-ins', t('report.payIns'), money(cash.payIns)],
              ['pay-outs', t('report.payOuts'), money(cash.payOuts)],
            ]}
          />
        </section>
      </div>
    </article>
  );
}

/** Label–figure pairs; each figure is named by its label (`getByLabel('Counted')`, a screen reader's "Counted, €…"). */
function Figures({ id, rows }: { id: string; rows: readonly (readonly [string, string, string])[] }) {
  return (
    <dl className="figures">
      {rows.map(([key, label, value]) => (
        <Figure key={key} id={`${id}-${key}`} label={label} value={value} />
      ))}
    </dl>
  );
}

function Figure({ id, label, value, className }: { id: string; label: string; value: string; className?: string }) {
  return (
    <div className={className}>
      <dt id={`${id}-label`}>{label}</dt>
      <dd aria-labelledby={`${id}-label`}>{value}</dd>
    </div>
  );
}
