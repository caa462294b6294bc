import { createStore, useStore } from 'zustand';
import { toApiError, type ApiError } from '../api/errors';
import { api } from '../api/service';
import type { Order } from '../api/types';

/** Box office: finding an order by its id or a ticket code, and cancelling it. */
export interface OrdersState {
  found: Order | null;
  searched: boolean;
  busy: boolean;
  error: ApiError | null;
  /** today's sales on this engine, newest first */
  today: Order[];
  todayRequested(): Promise<void>;
  /** an order from today's list, shown as if looked up */
  shown(order: Order): void;
  lookedUp(query: string): Promise<void>;
  cancelled(orderId: string): Promise<void>;
  cleared(): void;
}

export const ordersStore = createStore<OrdersState>()((set, get) => ({
  found: null,
  searched: false,
  busy: false,
  error: null,
  today: [],
  async todayRequested() {
    try {
      // The engine lists the newest orders first; today's are those since local midnight.
      const midnight = new Date();
      midnight.setHours(0, 0, 0, 0);
      const recent = await api().recentOrders(200);
      set({ today: recent.filter((order) => Date.parse(order.createdAt) >= midnight.getTime()) });
    } catch (thrown) {
      set({ error: toApiError(thrown) });
    }
  },
  shown(order) {
    set({ found: order, searched: true, error: null });
  },
  async lookedUp(query) {
    const text = query.trim();
    if (!text) return;
    set({ busy: true, error: null });
    try {
      const found = text.startsWith('ord_') ? await api().order(text) : ((await api().orderByTicket(text))[0] ?? null);
      set({ found, searched: true, busy: false });
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error.code === 'RESOURCE_NOT_FOUND') set({ found: null, searched: true, busy: false });
      else set({ error, busy: false });
    }
  },
  async cancelled(orderId) {
    set({ busy: true, error: null });
    try {
      const cancelled = await api().cancelOrder(orderId);
      set({ found: cancelled, busy: false, today: get().today.map((order) => (order.id === orderId ? cancelled : order)) });
    } catch (thrown) {
      set({ error: toApiError(thrown), busy: false });
    }
  },
  cleared() {
    set({ found: null, searched: false, error: null });
  },
}));

export const useOrders = <T>(selector: (state: OrdersState) => T): T => useStore(ordersStore, selector);
