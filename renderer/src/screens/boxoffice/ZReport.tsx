import { useEffect, useRef } from 'react';
import { useLocale } from '../../i18n/i18n';
import { useShiftT } from '../../i18n/shifts';
import { useCatalog } from '../../stores/catalog';
import { useDrawer } from '../../stores/drawer';
import { ReportPrint } from './ReportPrint';
import { ShiftReportView } from './ShiftReportView';

/**
 * The shift just closed: its Z report on screen (already sent to the receipt printer by the close), `Print again`
 * (F9, where the cursor starts), and back to the sale (the button or F6).
 */
export function ZReport({ onBack }: { onBack(): void }) {
  const t = useShiftT();
  const locale = useLocale();
  const report = useDrawer((state) => state.closed);
  const timeZone = useCatalog((state) => state.locations.find((location) => location.timeZone !== undefined)?.timeZone);
  const screen = useRef<HTMLElement>(null);
  useEffect(() => screen.current?.querySelector<HTMLElement>('#report-print')?.focus(), []);
  if (!report) return null;
  return (
    <section ref={screen} className="lookup z-report" aria-label={t('report.z')}>
      <ShiftReportView t={t} locale={locale} timeZone={timeZone} report={report} />
      <ReportPrint shiftId={report.shift.id} again />
      <div className="actions">
        <button type="button" className="primary" onClick={onBack}>
          {t('report.done')}
        </button>
      </div>
      <p className="shortcuts">{t('report.keys')}</p>
    </section>
  );
}
