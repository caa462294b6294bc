import { useShiftT } from '../../i18n/shifts';
import { shiftsStore, useShifts } from '../../stores/shifts';

/**
 * How the printing of a shift's report goes (the job the engine queued for the receipt printer), and a button to
 * print it again (F9 where the report has the screen). No printer set up is said, not left unexplained.
 */
export function ReportPrint({ shiftId, again }: { shiftId: string; /** printed once already (the Z report after its close) */ again: boolean }) {
  const t = useShiftT();
  const job = useShifts((state) => (state.printing?.shiftId === shiftId ? state.printing.job : null));
  const error = useShifts((state) => state.printError);
  const noPrinter = useShifts((state) => state.noPrinter);
  const trouble = job !== null && (job.state === 'failed' || (job.state === 'queued' && job.reason !== undefined));
  return (
    <div className="report-print">
      {job && !trouble && (
        <p role="status" className={`print-status is-${job.state}`}>
          {t(job.state === 'done' ? 'report.printed' : 'report.printing')}
        </p>
      )}
      {job && trouble && (
        <p role="alert" className="print-status is-failed">
          {t(job.state === 'failed' ? 'report.failed' : 'report.retrying', { reason: job.reason ?? job.state })}
        </p>
      )}
      {noPrinter && (
        <p role="alert" className="print-status is-failed">
          {t('report.noPrinter')}
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      <button type="button" id="report-print" className="secondary" aria-keyshortcuts="F9" onClick={() => void shiftsStore.getState().printRequested(shiftId)}>
        {t(again || job !== null ? 'report.printAgain' : 'report.print')}
      </button>
    </div>
  );
}
