import { createStore, useStore } from 'zustand';
import { toApiError } from '../api/errors';
import { api } from '../api/service';
import type { CheckinCounts } from '../api/types';
import type { Outcome } from '../screens/gate/verdict';

/**
 * The gate screen (contract §15): which show this door admits to, the gate's name (kept on this device), the
 * direction (in, or out for re-entry), the latest verdict and the show's counts. Scans are checked one after
 * another in the order they came (a keyboard-wedge scanner may send the next before the first is answered).
 */
export interface GateState {
  occurrenceId: string | null;
  gateName: string;
  direction: 'in' | 'out';
  busy: boolean;
  outcome: Outcome | null;
  /** one more with each verdict: the screen sounds and takes the focus back once per scan */
  seq: number;
  counts: CheckinCounts | null;
  showChosen(occurrenceId: string | null): void;
  gateNamed(name: string): void;
  directionToggled(): void;
  codeSubmitted(code: string): Promise<void>;
  countsRefreshed(): Promise<void>;
}

const SHOW_KEY = 'kassa.gateShow';
const NAME_KEY = 'kassa.gateName';

function saved(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage disabled: the defaults stand
  }
}
function save(key: string, value: string): void {
  try {
    if (value === '') localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // storage disabled: the setting lasts for this page only
  }
}

let queue: Promise<void> = Promise.resolve();

export const gateStore = createStore<GateState>()((set, get) => ({
  occurrenceId: saved(SHOW_KEY),
  gateName: saved(NAME_KEY) ?? '',
  direction: 'in',
  busy: false,
  outcome: null,
  seq: 0,
  counts: null,
  showChosen(occurrenceId) {
    if (occurrenceId === get().occurrenceId) return;
    save(SHOW_KEY, occurrenceId ?? '');
    set({ occurrenceId, counts: null, outcome: null });
    void get().countsRefreshed();
  },
  gateNamed(name) {
    save(NAME_KEY, name.trim());
    set({ gateName: name });
  },
  directionToggled() {
    set({ direction: get().direction === 'in' ? 'out' : 'in' });
  },
  codeSubmitted(code) {
    const trimmed = code.trim();
    if (trimmed === '') return Promise.resolve();
    queue = queue.then(() => check(trimmed));
    return queue;
  },
  async countsRefreshed() {
    const occurrenceId = get().occurrenceId;
    if (occurrenceId === null) return;
    try {
      const counts = await api().checkinCounts(occurrenceId);
      if (get().occurrenceId === occurrenceId) set({ counts });
    } catch {
      // the counts stay as they were; the next verdict or poll reads them again
    }
  },
}));

async function check(code: string): Promise<void> {
  const { occurrenceId, direction, gateName } = gateStore.getState();
  // the previous person's verdict leaves the screen: read at a glance while this one is checked (a slow hub takes up
  // to 1.5 s), it would answer for the wrong ticket
  gateStore.setState({ busy: true, outcome: null });
  let outcome: Outcome;
  try {
    const gate = gateName.trim();
    const answer = await api().checkIn({ code, direction, ...(occurrenceId !== null && { occurrenceId }), ...(gate !== '' && { gate }) });
    outcome = { kind: 'answer', answer };
  } catch (thrown) {
    const error = toApiError(thrown);
    outcome = { kind: 'refused', code: error.code, details: error.details };
  }
  gateStore.setState((state) => ({ busy: false, outcome, seq: state.seq + 1 }));
  void gateStore.getState().countsRefreshed();
}

export const useGate = <T>(selector: (state: GateState) => T): T => useStore(gateStore, selector);
