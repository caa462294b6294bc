import { createStore, useStore } from 'zustand';
import { toApiError, type ApiError } from '../api/errors';
import { downloadTicketsPdf, type PdfSize, type PrintBody, type PrintJob, type Printer } from '../api/printing';
import { api } from '../api/service';

/**
 * Printing as the UI sees it (contract §12): the job of the order on screen (watched until it is done or
 * failed), the queue for the box office, and the printers for the header. The engine decides everything;
 * this store asks and shows.
 */
export interface PrintingState {
  /** the order on the confirmation screen and its latest job */
  orderId: string | null;
  job: PrintJob | null;
  error: ApiError | null;
  /** no printer is configured: nothing to print on (the PDF remains) */
  unavailable: boolean;
  queue: PrintJob[];
  printers: Printer[];
  /** a sale was confirmed: the kiosk prints it without being asked (once per order, even after a reload) */
  saleConfirmed(orderId: string): Promise<void>;
  /** staff asked to print (F9, the button) or reprint */
  printRequested(orderId: string, body?: { what?: PrintBody['what']; printer?: string }): Promise<void>;
  reprintRequested(job: PrintJob): Promise<void>;
  queueOpened(): Promise<void>;
  printersChecked(): Promise<void>;
  pdfRequested(orderId: string, size: PdfSize): Promise<void>;
  confirmationLeft(): void;
}

const initial = { orderId: null, job: null, error: null, unavailable: false };
const WATCH_MS = 1_000;
/** how long a job on screen is watched; a kiosk customer has long gone by then */
const WATCH_LIMIT_MS = 5 * 60_000;

export const printingStore = createStore<PrintingState>()((set, get) => {
  let watching = 0;

  function watch(job: PrintJob): void {
    const run = ++watching;
    const started = Date.now();
    const tick = async () => {
      if (run !== watching) return;
      const current = get().job;
      if (!current || current.state === 'done' || current.state === 'failed' || Date.now() - started > WATCH_LIMIT_MS) return;
      try {
        const next = await api().printJob(current.id);
        if (run === watching) set({ job: next });
      } catch (thrown) {
        if (run === watching) set({ error: toApiError(thrown) });
      }
      setTimeout(() => void tick(), WATCH_MS);
    };
    set({ job, error: null });
    setTimeout(() => void tick(), WATCH_MS);
  }

  async function send(orderId: string, body: PrintBody): Promise<PrintJob | undefined> {
    set({ orderId, error: null });
    try {
      const job = await api().print(orderId, body);
      if (get().orderId === orderId) watch(job);
      return job;
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error.code === 'PRINTER_NOT_CONFIGURED') set({ unavailable: true, error: null });
      else set({ error });
      return undefined;
    }
  }

  return {
    ...initial,
    queue: [],
    printers: [],
    async saleConfirmed(orderId) {
      if (get().orderId === orderId) return;
      await send(orderId, { what: 'all', ifNotPrinted: true });
    },
    async printRequested(orderId, body = {}) {
      await send(orderId, { what: body.what ?? 'all', ...(body.printer !== undefined && { printer: body.printer }) });
    },
    async reprintRequested(job) {
      try {
        // a shift's X or Z report prints again from its shift, an order's job from its order
        if (job.shiftId !== undefined) await api().printShift(job.shiftId, { printer: job.printer });
        else if (job.orderId !== undefined && isOrderWhat(job.what)) await api().print(job.orderId, { what: job.what, printer: job.printer });
        set({ error: null });
      } catch (thrown) {
        set({ error: toApiError(thrown) });
      }
      await get().queueOpened();
    },
    async queueOpened() {
      try {
        set({ queue: await api().printJobs(50) });
      } catch (thrown) {
        set({ error: toApiError(thrown) });
      }
    },
    async printersChecked() {
      try {
        set({ printers: await api().printers() });
      } catch {
        set({ printers: [] }); // the engine's reachability shows in the connectivity line already
      }
    },
    async pdfRequested(orderId, size) {
      try {
        await downloadTicketsPdf(orderId, size);
      } catch (thrown) {
        set({ error: toApiError(thrown) });
      }
    },
    confirmationLeft() {
      watching += 1;
      set({ ...initial });
    },
  };
});

export function watchPrinters(intervalMs = 5000): () => void {
  void printingStore.getState().printersChecked();
  const timer = setInterval(() => void printingStore.getState().printersChecked(), intervalMs);
  return () => clearInterval(timer);
}

export const usePrinting = <T>(selector: (state: PrintingState) => T): T => useStore(printingStore, selector);

/** What an order's job prints (not a shift's report). */
function isOrderWhat(what: PrintJob['what']): what is NonNullable<PrintBody['what']> {
  return what === 'all' || what === 'tickets' || what === 'receipt';
}
