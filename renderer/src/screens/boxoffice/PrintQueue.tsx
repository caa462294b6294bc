import { useEffect } from 'react';
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
        <table>
          <thead>
            <tr>
              <th scope="col">{pt('print.code')}</th>
              <th scope="col">{pt('print.order')}</th>
              <th scope="col">{pt('print.what')}</th>
              <th scope="col">{pt('print.printer')}</th>
              <th scope="col">{pt('print.state')}</th>
              <th scope="col">{pt('print.time')}</th>
              <th scope="col">
                <span className="visually-hidden">{pt('print.reprint', { code: '' })}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr key={job.id} data-state={job.state}>
                <td className="code">{job.code}</td>
                <td>{job.orderId}</td>
                <td>{pt(`print.what.${job.what}` satisfies PrintKey)}</td>
                <td>{job.printer}</td>
                <td>
                  {pt(`print.state.${job.state}` satisfies PrintKey)}
                  {job.reason !== undefined && <span className="reason"> — {job.reason}</span>}
                </td>
                <td>{time.format(new Date(job.createdAt))}</td>
                <td>
                  <button type="button" className="secondary" onClick={() => void actions.reprintRequested(job)}>
                    {pt('print.reprint', { code: job.code })}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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
