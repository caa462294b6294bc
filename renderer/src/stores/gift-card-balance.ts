import { createStore, useStore } from 'zustand';
import { toApiError, type ApiError } from '../api/errors';
import { api } from '../api/service';
import type { GiftCardView } from '../api/types';

/** The box office's balance check: one gift card as the engine answers it (balance, status, transactions). */
export interface GiftCardBalanceState {
  card: GiftCardView | null;
  busy: boolean;
  /** unknown code (404), too many unknown codes (429), the hub unreachable from a terminal (503)… */
  error: ApiError | null;
  checked(code: string): Promise<void>;
  cleared(): void;
}

const initial = { card: null, busy: false, error: null };

export const giftCardBalanceStore = createStore<GiftCardBalanceState>()((set, get) => ({
  ...initial,
  async checked(code) {
    if (!code.trim() || get().busy) return;
    set({ busy: true, error: null, card: null });
    try {
      set({ card: await api().giftCard(code.trim()), busy: false });
    } catch (thrown) {
      set({ busy: false, error: toApiError(thrown) });
    }
  },
  cleared() {
    set({ ...initial });
  },
}));

export const useGiftCardBalance = <T>(selector: (state: GiftCardBalanceState) => T): T => useStore(giftCardBalanceStore, selector);
