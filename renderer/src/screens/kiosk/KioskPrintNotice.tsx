import type { PrintJob } from '../../api/types';
import { useT } from '../../i18n/i18n';
import { usePrintT } from '../../i18n/printing';
import { usePrinting, type PrintingState } from '../../stores/printing';

export type KioskPrintState = 'waiting' | 'printing' | 'done' | 'not-printed' | 'printer-trouble';

/**
 * How the kiosk's own print job of this order stands (contract §12: a kiosk prints after every sale): the
 * engine's job state as watched by the printing store. `not-printed` — no printer is set up, the print request
 * was refused, or the job failed — and `printer-trouble` — the printer cannot be reached, the job waits and
 * is retried — both mean the customer leaves without paper unless told where to get the tickets.
 */
export function kioskPrintState(state: Pick<PrintingState, 'orderId' | 'job' | 'error' | 'unavailable'>, orderId: string): KioskPrintState {
  if (state.orderId !== orderId) return 'waiting';
  if (state.unavailable) return 'not-printed';
  const job: PrintJob | null = state.job;
  // An error while the job is watched is a hiccup of the watch; without a job the print request itself failed.
  if (!job) return state.error ? 'not-printed' : 'waiting';
  if (job.state === 'failed') return 'not-printed';
  if (job.state === 'queued' && job.reason !== undefined) return 'printer-trouble';
  return job.state === 'done' ? 'done' : 'printing';
}

export const useKioskPrintState = (orderId: string): KioskPrintState => usePrinting((state) => kioskPrintState(state, orderId));

/**
 * On the kiosk's confirmation, in words for the customer: printing, printed (take them), or — said plainly
 * at the top — not printed, with where to get the tickets: the box office, with the order number (and the
 * job's code for staff when there is a job). The QR codes stay on screen below.
 */
export function KioskPrintNotice({ orderId }: { orderId: string }) {
  const t = useT();
  const pt = usePrintT();
  const state = useKioskPrintState(orderId);
  const code = usePrinting((printing) => (printing.orderId === orderId ? printing.job?.code : undefined));
  if (state === 'waiting') return null;
  if (state === 'printing' || state === 'done') {
    return (
      <p role="status" className={`print-status is-${state}`} aria-live="polite">
        {pt(state === 'done' ? 'print.done' : 'print.printing')}
      </p>
    );
  }
  return (
    <div role="alert" className="print-status is-failed kiosk-not-printed" data-state={state}>
      <p className="not-printed">
        <strong>{t(state === 'not-printed' ? 'kioskPrint.notPrinted' : 'kioskPrint.printerTrouble')}</strong>
      </p>
      <p className="where">{t('kioskPrint.where', { order: orderId })}</p>
      {code && <p className="staff-code">{t('kioskPrint.staffCode', { code })}</p>}
    </div>
  );
}
