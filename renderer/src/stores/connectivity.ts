import { createStore, useStore } from 'zustand';
import { api } from '../api/service';
import type { SyncConflict } from '../api/types';
import { toApiError } from '../api/errors';

/**
 * Online or offline, and how many orders wait to sync (contract §9), from the engine's sync status. With
 * an upstream configured, "online" means the upstream is reachable; standalone, it means the engine answers
 * (and nothing waits to sync). Probes are never retried and never overlap.
 */
export interface ConnectivityState {
  online: boolean | null;
  /** outbox entries not yet upstream; null when the engine runs standalone */
  waiting: number | null;
  conflicts: SyncConflict[];
  /** the largest `waiting` since nothing last waited: what the backlog's progress bar counts against */
  backlogPeak: number;
  /** entries delivered per second lately, and the engine's estimate of the time left (null: nothing moving) */
  deliveryRate: number;
  estimatedSecondsLeft: number | null;
  oldestWaitingSeconds: number | null;
  /** the upstream refuses the sync key */
  keyRejected: boolean;
  checked(): Promise<void>;
}

let checking = false;

const NO_BACKLOG = { backlogPeak: 0, deliveryRate: 0, estimatedSecondsLeft: null, oldestWaitingSeconds: null, keyRejected: false } as const;

export const connectivityStore = createStore<ConnectivityState>()((set, get) => ({
  online: null,
  waiting: null,
  conflicts: [],
  ...NO_BACKLOG,
  async checked() {
    if (checking) return;
    checking = true;
    try {
      const status = await api().syncStatus();
      if (status.upstream === null) set({ online: true, waiting: null, conflicts: [], ...NO_BACKLOG });
      else {
        set({
          online: status.online !== false,
          waiting: status.waiting,
          conflicts: status.conflicts,
          backlogPeak: status.waiting === 0 ? 0 : Math.max(get().backlogPeak, status.waiting),
          deliveryRate: status.deliveryRate,
          estimatedSecondsLeft: status.estimatedSecondsLeft,
          oldestWaitingSeconds: status.oldestWaitingSeconds,
          keyRejected: status.keyRejected,
        });
      }
    } catch (thrown) {
      // A key without the admin scope cannot read the sync status: the engine's reachability stands in.
      const error = toApiError(thrown);
      if (error.status === 401 || error.status === 403) set({ online: await api().health().then(() => true, () => false), waiting: null, ...NO_BACKLOG });
      else set({ online: false });
    } finally {
      checking = false;
    }
  },
}));

export function watchConnectivity(intervalMs = 5000): () => void {
  void connectivityStore.getState().checked();
  const timer = setInterval(() => void connectivityStore.getState().checked(), intervalMs);
  return () => clearInterval(timer);
}

export const useConnectivity = <T>(selector: (state: ConnectivityState) => T): T => useStore(connectivityStore, selector);
