import { createStore, useStore } from 'zustand';
import { toApiError, type ApiError } from '../api/errors';
import { api } from '../api/service';
import type { Event, Inventory, Location } from '../api/types';

/** What is on sale: events, the chosen occurrence and its live inventory. */
export interface CatalogState {
  events: Event[];
  /** venues, for their names and time zones */
  locations: Location[];
  occurrenceId: string | null;
  inventory: Inventory | null;
  error: ApiError | null;
  eventsRequested(): Promise<void>;
  occurrenceChosen(occurrenceId: string | null): Promise<void>;
  inventoryRefreshed(currency?: string): Promise<void>;
}

export const catalogStore = createStore<CatalogState>()((set, get) => ({
  events: [],
  locations: [],
  occurrenceId: null,
  inventory: null,
  error: null,
  async eventsRequested() {
    try {
      const [events, locations] = await Promise.all([api().events(), api().locations()]);
      set({ events, locations, error: null });
    } catch (error) {
      set({ error: toApiError(error) });
    }
  },
  async occurrenceChosen(occurrenceId) {
    set({ occurrenceId, inventory: null });
    if (occurrenceId) await get().inventoryRefreshed();
  },
  async inventoryRefreshed(currency) {
    const occurrenceId = get().occurrenceId;
    if (!occurrenceId) return;
    try {
      const inventory = await api().inventory(occurrenceId, currency);
      if (get().occurrenceId === occurrenceId) set({ inventory, error: null });
    } catch (error) {
      set({ error: toApiError(error) });
    }
  },
}));

/** The IANA time zone of the venue of an event (undefined: the computer's own). */
export function timeZoneOf(state: Pick<CatalogState, 'events' | 'locations'>, eventId: string | undefined): string | undefined {
  const locationId = state.events.find((event) => event.id === eventId)?.locationId;
  return state.locations.find((location) => location.id === locationId)?.timeZone;
}

export const useCatalog = <T>(selector: (state: CatalogState) => T): T => useStore(catalogStore, selector);
