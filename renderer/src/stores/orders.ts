import { createStore, useStore } from 'zustand';
import { toApiError, type ApiError } from '../api/errors';
import { api } from '../api/service';
import type { Order, OrdersSummary } from '../api/types';
import { catalogStore } from './catalog';
import { venueDay } from './venue-day';

/** orders asked for per page of today's sales */
export const TODAY_PAGE = 50;

/** Box office: finding an order by its id or a ticket code, today's sales (paged, with the engine's totals), and cancelling. */
export interface OrdersState {
  found: Order | null;
  searched: boolean;
  busy: boolean;
  error: ApiError | null;
  /** today's sales on this engine (the venue's day), newest first, as far as they have been read */
  today: Order[];
  /** where the next page of today's sales starts; null when every one of them is shown */
  todayMore: string | null;
  /** the engine's totals of the venue's day, per currency */
  summary: OrdersSummary | null;
  todayRequested(): Promise<void>;
  /** the next page of today's sales */
  moreRequested(): Promise<void>;
  /** an order from today's list, shown as if looked up */
  shown(order: Order): void;
  lookedUp(query: string): Promise<void>;
  cancelled(orderId: string): Promise<void>;
  cleared(): void;
}

export const ordersStore = createStore<OrdersState>()((set, get) => {
  let day: { from: string; to: string } | null = null;

  /** Reads one page and keeps the orders of the day; more may follow while the page ends inside the day. */
  async function page(cursor?: string): Promise<void> {
    if (!day) return;
    const { from, to } = day;
    const answer = await api().ordersPage(TODAY_PAGE, cursor);
    const at = (order: Order) => Date.parse(order.createdAt);
    const within = (order: Order) => at(order) >= Date.parse(from) && at(order) < Date.parse(to);
    const last = answer.data.at(-1);
    const more = answer.nextCursor !== undefined && last !== undefined && at(last) >= Date.parse(from) ? answer.nextCursor : null;
    const seen = new Set(cursor === undefined ? [] : get().today.map((order) => order.id));
    const next = answer.data.filter((order) => within(order) && !seen.has(order.id));
    set({ today: cursor === undefined ? next : [...get().today, ...next], todayMore: more });
  }

  async function summarized(): Promise<void> {
    if (day) set({ summary: await api().ordersSummary(day.from, day.to) });
  }

  return {
    found: null,
    searched: false,
    busy: false,
    error: null,
    today: [],
    todayMore: null,
    summary: null,
    async todayRequested() {
      try {
        if (catalogStore.getState().locations.length === 0) await catalogStore.getState().eventsRequested();
        const zone = catalogStore.getState().locations.find((location) => location.timeZone !== undefined)?.timeZone;
        day = venueDay(new Date(), zone);
        await Promise.all([page(), summarized()]);
      } catch (thrown) {
        set({ error: toApiError(thrown) });
      }
    },
    async moreRequested() {
      const cursor = get().todayMore;
      if (cursor === null) return;
      set({ busy: true });
      try {
        await page(cursor);
        set({ busy: false });
      } catch (thrown) {
        set({ error: toApiError(thrown), busy: false });
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
        await summarized();
      } catch (thrown) {
        set({ error: toApiError(thrown), busy: false });
      }
    },
    cleared() {
      set({ found: null, searched: false, error: null });
    },
  };
});

export const useOrders = <T>(selector: (state: OrdersState) => T): T => useStore(ordersStore, selector);
