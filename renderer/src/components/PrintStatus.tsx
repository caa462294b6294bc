import type { PrintJob } from '../api/printing';
import type { PrintTranslate } from '../i18n/printing';

interface Props {
  t: PrintTranslate;
  job: PrintJob | null;
  /** kiosk: words for a customer, and a code to show staff when it fails */
  forCustomer: boolean;
}

/**
 * Where the order's print job stands. A job still queued with a reason means the printer cannot be reached:
 * a kiosk customer is told at once (with the job's code for staff) rather than left waiting.
 */
export function PrintStatus({ t, job, forCustomer }: Props) {
  if (!job) return null;
  const trouble = job.state === 'failed' || (job.state === 'queued' && job.reason !== undefined);
  if (trouble) {
    return (
      <p role="alert" className="print-status is-failed" data-state={job.state}>
        {forCustomer
          ? t('print.failedKiosk', { code: job.code })
          : t(job.state === 'failed' ? 'print.failedStaff' : 'print.retrying', { reason: job.reason ?? job.state })}
      </p>
    );
  }
  const text = job.state === 'done' ? (forCustomer ? t('print.done') : t('print.doneStaff')) : forCustomer ? t('print.printing') : t('print.waiting');
  return (
    <p role="status" className={`print-status is-${job.state}`} data-state={job.state} aria-live="polite">
      {text}
    </p>
  );
}
