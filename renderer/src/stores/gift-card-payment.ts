import { createStore, useStore } from 'zustand';
import { toApiError, type ApiError } from '../api/errors';
import { api } from '../api/service';
import type { GiftCardQuote } from '../api/types';
import { cartStore } from './cart';

/**
 * The gift cards offered for the held cart (contract §13), in the order they were entered, and the engine's
 * quote for them: what each card takes, its balance before and after, and what is left to pay. The UI computes
 * none of it: every change (a card added or removed, the cart repriced) asks the engine again. Nothing is held
 * until the checkout, which sends the same cards.
 */
export interface GiftCardPaymentState {
  /** the codes as entered, in order (the engine matches them ignoring case, spaces and hyphens) */
  codes: string[];
  quote: GiftCardQuote | null;
  busy: boolean;
  /** the last code refused (unknown, void, other currency, too many tries…), said beside the field */
  error: ApiError | null;
  /** a code was typed or scanned: asks the engine with it added; true when it was taken */
  codeEntered(code: string): Promise<boolean>;
  cardRemoved(code: string): Promise<void>;
  /** the cart's total changed: the same cards are quoted again (refused now: they are dropped, and it says why) */
  cartRepriced(): Promise<void>;
  errorDismissed(): void;
  reset(): void;
}

const initial = { codes: [], quote: null, busy: false, error: null };

/** The same code typed twice (another case, spaces or hyphens from a scanner) is one card. */
const sameCode = (a: string, b: string): boolean => normalize(a) === normalize(b);
const normalize = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

export const giftCardPaymentStore = createStore<GiftCardPaymentState>()((set, get) => {
  /** Asks the engine's quote for `codes`; keeps them only when it answers (an error leaves the cards as they were). */
  async function quoted(codes: string[], dropOnError = false): Promise<boolean> {
    const cart = cartStore.getState().cart;
    if (!cart) return false;
    if (codes.length === 0) {
      set({ ...initial });
      return true;
    }
    set({ busy: true, error: null });
    try {
      const quote = await api().giftCardQuote(cart.id, codes.map((code) => ({ code })));
      // another cart meanwhile (a new sale, new tickets): this answer is not for it (the store was reset with it)
      if (cartStore.getState().cart?.id !== cart.id) return false;
      // a card the total no longer needs is left out of the quote (contract: it would take 0): it goes
      set({ codes: codes.filter((entered) => quote.parts.some((part) => sameCode(part.code, entered))), quote, busy: false, error: null });
      return true;
    } catch (thrown) {
      // a quote for another total is no quote: the cards go, and the error says why
      set({ busy: false, error: toApiError(thrown), ...(dropOnError && { codes: [], quote: null }) });
      return false;
    }
  }

  return {
    ...initial,
    async codeEntered(code) {
      const trimmed = code.trim();
      if (!trimmed || get().busy) return false;
      if (get().codes.some((known) => sameCode(known, trimmed))) return true; // scanned twice: already in
      return quoted([...get().codes, trimmed]);
    },
    async cardRemoved(code) {
      await quoted(get().codes.filter((known) => !sameCode(known, code)));
    },
    async cartRepriced() {
      if (get().codes.length > 0) await quoted(get().codes, true);
    },
    errorDismissed() {
      set({ error: null });
    },
    reset() {
      set({ ...initial });
    },
  };
});

// The cards belong to the cart they were quoted for: another cart starts without them; a repriced cart
// (an extra, a voucher, another currency) is quoted again, so `Left to pay` always follows the engine's total.
cartStore.subscribe((state, previous) => {
  const store = giftCardPaymentStore.getState();
  if (state.cart?.id !== previous.cart?.id) store.reset();
  else if (state.cart && previous.cart && store.codes.length > 0 && (state.cart.total.amount !== previous.cart.total.amount || state.cart.total.currency !== previous.cart.total.currency)) {
    void store.cartRepriced();
  }
});

export const useGiftCardPayment = <T>(selector: (state: GiftCardPaymentState) => T): T => useStore(giftCardPaymentStore, selector);
