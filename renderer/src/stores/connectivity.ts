import { createStore, useStore } from 'zustand';
import { api } from '../api/service';

/**
 * Whether the engine answers. Orders waiting to sync come with the sync issue's status endpoint; until
 * then `waiting` stays null and the header shows reachability only.
 */
export interface ConnectivityState {
  online: boolean | null;
  waiting: number | null;
  checked(): Promise<void>;
}

let checking = false;

export const connectivityStore = createStore<ConnectivityState>()((set) => ({
  online: null,
  waiting: null,
  async checked() {
    if (checking) return; // one probe at a time
    checking = true;
    try {
      await api().health();
      set({ online: true });
    } catch {
      set({ online: false });
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
