import { useEffect, useState } from 'react';
import type { Money } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { formatMoney, formatTime } from '../../format';
import { useLocale, useT } from '../../i18n/i18n';
import { useShiftT } from '../../i18n/shifts';
import { useCatalog } from '../../stores/catalog';
import { shiftsStore, useShifts } from '../../stores/shifts';
import { venueDay } from '../../stores/venue-day';
import { ReportPrint } from './ReportPrint';
import { ShiftReportView } from './ShiftReportView';

/**
 * The manager's view (Shift+F8, or `Shifts`): today's shifts on the venue's clock, newest first, each with the
 * engine's figures — sales, and for a closed one its Z number, expected, counted and difference. A row opens
 * the whole report (X for the open shift, Z for a closed one), which prints from here too.
 */
export function Shifts({ onBack }: { onBack(): void }) {
  const t = useShiftT();
  const mainT = useT();
  const locale = useLocale();
  const today = useShifts((state) => state.today);
  const busy = useShifts((state) => state.busy);
  const error = useShifts((state) => state.error);
  const timeZone = useCatalog((state) => state.locations.find((location) => location.timeZone !== undefined)?.timeZone);
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => {
    void shiftsStore.getState().todayRequested(venueDay(new Date(), timeZone).from);
    return () => shiftsStore.getState().left();
  }, [timeZone]);
  const money = (value: Money | undefined) => (value ? formatMoney(value, locale) : '—');
  const report = today.find((candidate) => candidate.shift.id === shown);

  return (
    <section className="lookup shifts" aria-labelledby="shifts-heading">
      <h2 id="shifts-heading">{t('shifts.heading')}</h2>
      <div className="actions">
        <button type="button" className="secondary" onClick={onBack}>
          {mainT('lookup.back')}
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      {busy && today.length === 0 && <p role="status">{t('shifts.loading')}</p>}
      {!busy && !error && today.length === 0 && <p className="hint">{t('shifts.none')}</p>}
      {today.length > 0 && (
        <DataTable
          className="today-list shifts-list"
          rows={today}
          rowKey={(row) => row.shift.id}
          rowAttributes={(row) => ({ 'data-state': row.shift.status })}
          columns={[
            { heading: t('shifts.shift'), cell: (row) => row.shift.number, className: 'number' },
            {
              heading: t('shifts.status'),
              cell: (row) => (row.shift.status === 'open' ? t('shifts.status.open') : t('shifts.status.closed', { number: row.shift.zNumber ?? '' })),
            },
            { heading: t('report.opened'), cell: (row) => formatTime(row.shift.openedAt, locale, timeZone) },
            { heading: t('report.closed'), cell: (row) => (row.shift.closedAt ? formatTime(row.shift.closedAt, locale, timeZone) : '—') },
            { heading: t('report.orders'), cell: (row) => t('report.countTotal', { count: row.orders.count, total: money(row.orders.total) }), className: 'number' },
            { heading: t('report.expected'), cell: (row) => money(row.shift.expected ?? row.cash.expected), className: 'number' },
            { heading: t('report.counted'), cell: (row) => money(row.shift.counted), className: 'number' },
            { heading: t('report.difference'), cell: (row) => money(row.shift.difference), className: 'number' },
            {
              heading: t('shifts.report'),
              cell: (row) => (
                <button type="button" className="link" aria-pressed={shown === row.shift.id} onClick={() => setShown(shown === row.shift.id ? null : row.shift.id)}>
                  {t('shifts.show', { number: row.shift.number })}
                </button>
              ),
            },
          ]}
        />
      )}
      {report && (
        <div className="shift-detail">
          <ShiftReportView t={t} locale={locale} timeZone={timeZone} report={report} level={3} />
          <ReportPrint shiftId={report.shift.id} again={report.shift.status === 'closed'} />
        </div>
      )}
      <p className="shortcuts">{t('shifts.keys')}</p>
    </section>
  );
}
