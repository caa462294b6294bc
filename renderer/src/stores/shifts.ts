import { createStore, useStore } from 'zustand';
import { toApiError, type ApiError } from '../api/errors';
import { api } from '../api/service';
import type { Shift, ShiftPrintJob, ShiftReport } from '../api/types';

/**
 * The manager's view of today's shifts (each with its report, as the engine answers it) and the printing of a
 * shift's report on the receipt printer (POST /shifts/{id}/print): the Z report right after a close, or again
 * on request. The UI adds nothing up: every figure is the engine's.
 */
export interface ShiftsState {
  /** today's shifts, newest first, each with its report (X for the open one, the frozen Z for closed ones) */
  today: ShiftReport[];
  busy: boolean;
  error: ApiError | null;
  /** the report's print job being watched, and for which shift */
  printing: { shiftId: string; job: ShiftPrintJob } | null;
  printError: ApiError | null;
  /** no printer is set up (PRINTER_NOT_CONFIGURED): the report stays on screen only */
  noPrinter: boolean;
  /** the shifts opened or closed since `from` (the venue's midnight), or still open */
  todayRequested(from: string): Promise<void>;
  /** print the shift's report (Z for a closed shift); the job is watched until it is done or failed */
  printRequested(shiftId: string): Promise<void>;
  left(): void;
}

const PAGE = 50;
const WATCH_MS = 1_000;
const WATCH_LIMIT_MS = 2 * 60_000;

const initial = { today: [], busy: false, error: null, printing: null, printError: null, noPrinter: false };

/** A shift of the day from `from` on: opened or closed since, or open still. */
const ofToday = (shift: Shift, from: string) => shift.status === 'open' || shift.openedAt >= from || (shift.closedAt ?? '') >= from;

export const shiftsStore = createStore<ShiftsState>()((set, get) => {
  let watching = 0;

  function watch(shiftId: string, job: ShiftPrintJob): void {
    const run = ++watching;
    const started = Date.now();
    set({ printing: { shiftId, job }, printError: null, noPrinter: false });
    const tick = async () => {
      const current = get().printing;
      if (run !== watching || !current || current.job.state === 'done' || current.job.state === 'failed' || Date.now() - started > WATCH_LIMIT_MS) return;
      try {
        const next = await api().shiftPrintJob(current.job.id);
        if (run === watching) set({ printing: { shiftId, job: next } });
      } catch (thrown) {
        if (run === watching) set({ printError: toApiError(thrown) });
      }
      setTimeout(() => void tick(), WATCH_MS);
    };
    setTimeout(() => void tick(), WATCH_MS);
  }

  return {
    ...initial,
    async todayRequested(from) {
      set({ busy: true, error: null });
      try {
        const shifts: Shift[] = [];
        for (let cursor: string | undefined, more = true; more; ) {
          const page = await api().shifts(PAGE, cursor);
          shifts.push(...page.data.filter((shift) => ofToday(shift, from)));
          // newest first: a page that reaches back before the day is the last one needed
          more = page.nextCursor !== undefined && page.data.every((shift) => ofToday(shift, from));
          cursor = page.nextCursor;
        }
        const today = await Promise.all(shifts.map((shift) => api().shiftReport(shift.id)));
        set({ today, busy: false });
      } catch (thrown) {
        set({ busy: false, error: toApiError(thrown) });
      }
    },
    async printRequested(shiftId) {
      set({ printError: null });
      try {
        watch(shiftId, await api().printShift(shiftId));
      } catch (thrown) {
        const error = toApiError(thrown);
        if (error.code === 'PRINTER_NOT_CONFIGURED') set({ noPrinter: true, printing: null });
        else set({ printError: error });
      }
    },
    left() {
      watching += 1;
      set({ ...initial });
    },
  };
});

export const useShifts = <T>(selector: (state: ShiftsState) => T): T => useStore(shiftsStore, selector);
