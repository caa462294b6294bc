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
  /** the engine itself does not answer (restarting, stopped): the page keeps its state and tries again */
  reconnecting: boolean;
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
  reconnecting: false,
  waiting: null,
  conflicts: [],
  ...NO_BACKLOG,
  async checked() {
    if (checking) return;
    checking = true;
    try {
      const status = await api().syncStatus();
      if (status.upstream === null) set({ online: true, reconnecting: false, waiting: null, conflicts: [], ...NO_BACKLOG });
      else {
        set({
          // a refused sync key is not online, whatever an older engine says (the header shows the key instead)
          online: status.online !== false && !status.keyRejected,
          reconnecting: false,
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
      if (error.status === 401 || error.status === 403) {
        const up = await api().health().then(() => true, () => false);
        set({ online: up, reconnecting: !up, waiting: null, ...NO_BACKLOG });
      } else set({ online: false, reconnecting: error.code === 'NETWORK_UNREACHABLE' });
    } finally {
      checking = false;
    }
  },
}));

/** Probes every `intervalMs`, and every second while the engine is away so the page is back as soon as it is. */
export function watchConnectivity(intervalMs = 5000): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const probe = async () => {
    await connectivityStore.getState().checked();
    if (stopped) return;
    timer = setTimeout(() => void probe(), connectivityStore.getState().reconnecting ? 1000 : intervalMs);
  };
  void probe();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

export const useConnectivity = <T>(selector: (state: ConnectivityState) => T): T => useStore(connectivityStore, selector);
