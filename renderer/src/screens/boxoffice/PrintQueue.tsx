import { useEffect } from 'react';
import { DataTable } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useLocale, useT } from '../../i18n/i18n';
import { usePrintT, type PrintKey } from '../../i18n/printing';
import { printingStore, usePrinting } from '../../stores/printing';

/** The box office's view of the print queue: every job with its state (and why it failed), and a reprint. */
export function PrintQueue({ onBack }: { onBack(): void }) {
  const t = useT();
  const pt = usePrintT();
  const locale = useLocale();
  const jobs = usePrinting((state) => state.queue);
  const error = usePrinting((state) => state.error);
  const actions = printingStore.getState();

  useEffect(() => {
    void printingStore.getState().queueOpened();
    const timer = setInterval(() => void printingStore.getState().queueOpened(), 2000);
    return () => clearInterval(timer);
  }, []);

  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' });
  return (
    <section className="print-queue" aria-labelledby="print-queue-heading">
      <h2 id="print-queue-heading">{pt('print.queueHeading')}</h2>
      <button type="button" className="secondary" onClick={onBack}>
        {pt('print.back')}
      </button>
      {error && <ErrorAlert t={t} error={error} />}
      {jobs.length === 0 ? (
        <p role="status">{pt('print.empty')}</p>
      ) : (
        <DataTable
          rows={jobs}
          rowKey={(job) => job.id}
          rowAttributes={(job) => ({ 'data-state': job.state })}
          columns={[
            { heading: pt('print.code'), cell: (job) => job.code, className: 'code' },
            { heading: pt('print.order'), cell: (job) => job.orderId ?? '—' },
            { heading: pt('print.what'), cell: (job) => pt(`print.what.${job.what}` satisfies PrintKey) },
            { heading: pt('print.printer'), cell: (job) => job.printer },
            {
              heading: pt('print.state'),
              cell: (job) => (
                <>
                  {pt(`print.state.${job.state}` satisfies PrintKey)}
                  {job.reason !== undefined && <span className="reason"> — {job.reason}</span>}
                </>
              ),
            },
            { heading: pt('print.time'), cell: (job) => time.format(new Date(job.createdAt)) },
            {
              heading: <span className="visually-hidden">{pt('print.reprint', { code: '' })}</span>,
              cell: (job) => (
                <button type="button" className="secondary" onClick={() => void actions.reprintRequested(job)}>
                  {pt('print.reprint', { code: job.code })}
                </button>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}

/** Opens the queue; marked when a job failed or waits for a printer that is down. */
export function PrintQueueButton({ onOpen }: { onOpen(): void }) {
  const pt = usePrintT();
  const printers = usePrinting((state) => state.printers);
  if (printers.length === 0) return null;
  const trouble = printers.some((printer) => printer.state === 'down');
  return (
    <button type="button" className={trouble ? 'danger' : 'secondary'} onClick={onOpen}>
      {pt('print.queue')}
    </button>
  );
}
