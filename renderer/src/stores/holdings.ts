import { createStore, useStore } from 'zustand';
import { toApiError } from '../api/errors';
import { api } from '../api/service';
import type { Holdings } from '../api/types';

/** What this till holds from its hub, per inventory item (contract §10), and staff giving places back. */
export interface HoldingsState {
  holdings: Holdings | null;
  error: string | null;
  refreshed(): Promise<void>;
  giveBackRequested(occurrenceId: string): Promise<void>;
}

export const holdingsStore = createStore<HoldingsState>()((set) => ({
  holdings: null,
  error: null,
  async refreshed() {
    try {
      set({ holdings: await api().holdings(), error: null });
    } catch (thrown) {
      // A key without the sync scope, or no engine: nothing to show, the sale goes on.
      set({ holdings: null, error: toApiError(thrown).code });
    }
  },
  async giveBackRequested(occurrenceId) {
    try {
      set({ holdings: await api().giveBack(occurrenceId), error: null });
    } catch (thrown) {
      set({ error: toApiError(thrown).code });
    }
  },
}));

export const useHoldings = <T>(selector: (state: HoldingsState) => T): T => useStore(holdingsStore, selector);
