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
  checked(): Promise<void>;
}

let checking = false;

export const connectivityStore = createStore<ConnectivityState>()((set) => ({
  online: null,
  waiting: null,
  conflicts: [],
  async checked() {
    if (checking) return;
    checking = true;
    try {
      const status = await api().syncStatus();
      if (status.upstream === null) set({ online: true, waiting: null, conflicts: [] });
      else set({ online: status.online !== false, waiting: status.waiting, conflicts: status.conflicts });
    } catch (thrown) {
      // A key without the admin scope cannot read the sync status: the engine's reachability stands in.
      const error = toApiError(thrown);
      if (error.status === 401 || error.status === 403) set({ online: await api().health().then(() => true, () => false), waiting: null });
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
