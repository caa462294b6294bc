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
  checked(): Promise<void>;
}

let checking = false;

export const connectivityStore = createStore<ConnectivityState>()((set) => ({
  online: null,
  reconnecting: false,
  waiting: null,
  conflicts: [],
  async checked() {
    if (checking) return;
    checking = true;
    try {
      const status = await api().syncStatus();
      if (status.upstream === null) set({ online: true, reconnecting: false, waiting: null, conflicts: [] });
      else set({ online: status.online !== false, reconnecting: false, waiting: status.waiting, conflicts: status.conflicts });
    } catch (thrown) {
      // A key without the admin scope cannot read the sync status: the engine's reachability stands in.
      const error = toApiError(thrown);
      if (error.status === 401 || error.status === 403) {
        const up = await api().health().then(() => true, () => false);
        set({ online: up, reconnecting: !up, waiting: null });
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
