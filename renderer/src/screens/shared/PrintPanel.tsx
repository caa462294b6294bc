import { useEffect } from 'react';
import '../../printing.css';
import type { Order } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PrintStatus } from '../../components/PrintStatus';
import { useT } from '../../i18n/i18n';
import { usePrintT } from '../../i18n/printing';
import { printingStore, usePrinting } from '../../stores/printing';
import { useSession } from '../../stores/session';

/**
 * Printing on the confirmation screen (contract §12). A kiosk prints tickets and receipt as soon as the sale
 * is confirmed, without being asked, and says how it went; the box office prints on F9 (or the button) and
 * can download the tickets as a PDF (A4 or 80 mm) where there is no printer.
 */
export function PrintPanel({ order, reprint = false }: { order: Order; /** a looked-up order: the button says it prints again */ reprint?: boolean }) {
  const t = useT();
  const pt = usePrintT();
  const kiosk = useSession((state) => state.mode === 'kiosk');
  const job = usePrinting((state) => (state.orderId === order.id ? state.job : null));
  const error = usePrinting((state) => (state.orderId === order.id ? state.error : null));
  // box office (#22): no printer set up is said, with the way out (the PDF), rather than nothing at all
  const noPrinter = usePrinting((state) => state.orderId === order.id && state.unavailable);
  const actions = printingStore.getState();

  useEffect(() => {
    if (kiosk) void printingStore.getState().saleConfirmed(order.id);
    return () => printingStore.getState().confirmationLeft();
  }, [kiosk, order.id]);

  useEffect(() => {
    if (kiosk) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'F9' || event.shiftKey) return; // Shift+F9 closes the shift (BoxOffice)
      event.preventDefault();
      void printingStore.getState().printRequested(order.id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [kiosk, order.id]);

  return (
    <div className="print-panel no-print">
      {/* the kiosk says how printing went at the top of its confirmation, in words for customers (KioskPrintNotice) */}
      {!kiosk && <PrintStatus t={pt} job={job} forCustomer={false} />}
      {!kiosk && error && <ErrorAlert t={t} error={error} />}
      {!kiosk && job && (job.state === 'failed' || (job.state === 'queued' && job.reason !== undefined)) && <p className="hint">{pt('print.failedWhat')}</p>}
      {!kiosk && noPrinter && (
        <p role="alert" className="print-status is-failed">
          {pt('print.noPrinter')}
        </p>
      )}
      {!kiosk && (
        <div className="actions">
          <button type="button" id="print-order" onClick={() => void actions.printRequested(order.id)}>
            {pt(reprint ? 'print.reprintOrder' : 'print.button')}
          </button>
          {order.tickets.length > 0 && (
            <>
              <button type="button" className="secondary" onClick={() => void actions.pdfRequested(order.id, 'a4')}>
                {pt('print.pdfA4')}
              </button>
              <button type="button" className="secondary" onClick={() => void actions.pdfRequested(order.id, '80mm')}>
                {pt('print.pdf80')}
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
