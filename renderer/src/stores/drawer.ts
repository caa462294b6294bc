import { createStore, useStore } from 'zustand';
import { toApiError, type ApiError } from '../api/errors';
import { api } from '../api/service';
import type { CashMovement, Money, Shift, ShiftReport } from '../api/types';
import { shiftsStore } from './shifts';

/**
 * The cash drawer of the box office (contract §14): the open shift and the cash the engine expects in the drawer
 * (read from its report, never added up here), the drawer's dialogs, and the Z report of the shift just closed.
 * When the engine requires a shift for cash (ui-config `requireShift`, or a 409 SHIFT_NOT_OPEN), a cash payment
 * with the drawer closed asks to open it first and goes on once it is open.
 */
export type DrawerDialog = 'open' | 'payIn' | 'payOut' | 'close';

export interface DrawerState {
  /** the engine refuses cash while no shift is open (ui-config `requireShift`) */
  requireShift: boolean;
  /** the open shift, null when the drawer is closed */
  shift: Shift | null;
  /** what the engine expects in the drawer now (its report's `cash.expected`) */
  expected: Money | null;
  /** the engine was asked at least once (before that the header says nothing) */
  loaded: boolean;
  dialog: DrawerDialog | null;
  /** the Open drawer dialog was opened by a cash payment, which goes on once the drawer is open */
  forCash: boolean;
  busy: boolean;
  /** what the dialog on screen was answered (INSUFFICIENT_CASH, SHIFT_CLOSED, a field refused…) */
  error: ApiError | null;
  /** the Z report of the shift just closed: the box office shows it (and prints it) until staff go back */
  closed: ShiftReport | null;
  configured(requireShift: boolean): void;
  /** ask the engine again (after a sale, a refund, a movement, and now and then) */
  refreshed(): Promise<void>;
  /** a key or a button asked for a dialog; `afterOpen` goes on with what asked for the drawer (a cash payment) */
  dialogRequested(dialog: DrawerDialog, afterOpen?: () => void): void;
  dialogClosed(): void;
  /** `Open shift` in the Open drawer dialog */
  openSubmitted(openingFloat: Money): Promise<void>;
  /** `Pay in` / `Pay out` in their dialog */
  movementSubmitted(kind: CashMovement['kind'], amount: Money, reason: string): Promise<void>;
  /** `Close shift` inside the Close shift dialog: the engine closes it and answers its Z report */
  closeSubmitted(counted: Money, note?: string): Promise<void>;
  /** a cash payment is about to start: true when it may, else the Open drawer dialog opens (and `then` runs once it is open) */
  cashAllowed(then: () => void): boolean;
  /** the engine answered 409 SHIFT_NOT_OPEN: it requires a shift, whatever the configuration said */
  shiftRequired(then?: () => void): void;
  /** back from the Z report */
  zReportLeft(): void;
}

const initial = { shift: null, expected: null, loaded: false, dialog: null, forCash: false, busy: false, error: null, closed: null };
/** what runs once the drawer is open (kept out of the state: it is not something to show) */
let afterOpen: (() => void) | undefined;

export const drawerStore = createStore<DrawerState>()((set, get) => {
  /** the open shift and what its report expects in the drawer */
  async function load(): Promise<void> {
    const shift = await api().currentShift();
    const expected = shift ? (await api().shiftReport(shift.id)).cash.expected : null;
    set({ shift, expected, loaded: true });
  }

  /** runs one of the dialog's requests: busy meanwhile, its error shown in the dialog, the drawer read again after */
  async function submit(work: () => Promise<void>): Promise<boolean> {
    if (get().busy) return false;
    set({ busy: true, error: null });
    try {
      await work();
      set({ busy: false, dialog: null, forCash: false });
      return true;
    } catch (thrown) {
      const error = toApiError(thrown);
      set({ busy: false, error });
      // someone else opened or closed it meanwhile: what the header says follows the engine
      if (error.code === 'SHIFT_ALREADY_OPEN' || error.code === 'SHIFT_CLOSED' || error.status === 404) await get().refreshed();
      return false;
    }
  }

  return {
    requireShift: false,
    ...initial,
    configured(requireShift) {
      set({ requireShift });
    },
    async refreshed() {
      try {
        await load();
      } catch {
        // the engine is unreachable: the connectivity line says so, and the indicator keeps what it last knew
      }
    },
    dialogRequested(dialog, then) {
      // a drawer that is closed cannot take a movement or be closed again; an open one is not opened twice
      const open = get().shift !== null;
      if ((dialog === 'open') === open) return;
      afterOpen = dialog === 'open' ? then : undefined;
      set({ dialog, forCash: afterOpen !== undefined, error: null });
    },
    dialogClosed() {
      afterOpen = undefined;
      set({ dialog: null, forCash: false, error: null, busy: false });
    },
    async openSubmitted(openingFloat) {
      const opened = await submit(async () => {
        const shift = await api().openShift(openingFloat);
        set({ shift, expected: shift.openingFloat });
        await get().refreshed();
      });
      if (!opened) return;
      const then = afterOpen;
      afterOpen = undefined;
      then?.();
    },
    async movementSubmitted(kind, amount, reason) {
      const shift = get().shift;
      if (!shift) return;
      await submit(async () => {
        await api().cashMovement(shift.id, { kind, amount, reason });
        await get().refreshed();
      });
    },
    async closeSubmitted(counted, note) {
      const shift = get().shift;
      if (!shift) return;
      const done = await submit(async () => {
        const closed = await api().closeShift(shift.id, counted, note);
        set({ shift: null, expected: null });
        set({ closed: await api().shiftReport(closed.id) });
      });
      // the Z report goes to the receipt printer as soon as the shift is closed (once: `Print again` for more)
      const report = get().closed;
      if (done && report) await shiftsStore.getState().printRequested(report.shift.id);
    },
    cashAllowed(then) {
      const { requireShift, shift, loaded } = get();
      if (!requireShift || shift !== null || !loaded) return true;
      get().dialogRequested('open', then);
      return false;
    },
    shiftRequired(then) {
      set({ requireShift: true });
      // the shift may have been closed elsewhere meanwhile: the engine's answer decides, then the dialog opens
      void get()
        .refreshed()
        .then(() => {
          if (get().shift === null) get().dialogRequested('open', then);
        });
    },
    zReportLeft() {
      set({ closed: null });
    },
  };
});

export const useDrawer = <T>(selector: (state: DrawerState) => T): T => useStore(drawerStore, selector);

