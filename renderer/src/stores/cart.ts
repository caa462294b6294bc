import { createStore, useStore } from 'zustand';
import { toApiError, type ApiError } from '../api/errors';
import { recoveryFor } from '../recovery';
import { api } from '../api/service';
import type { Cart, CreateCart } from '../api/types';

/**
 * The held cart, always the engine's latest answer; the UI computes no price. Admission items are fixed
 * once held, so choosing other tickets or seats makes a new cart that names the old one (previousCartId).
 */
export type TicketRequest = CreateCart['items'][number];

export interface CartState {
  cart: Cart | null;
  busy: boolean;
  error: ApiError | null;
  /** set when the hold ran out (or any call answered 410): the UI says so and starts over */
  expired: boolean;
  /** the currency to price in before a cart exists, and to create the next one in */
  currency: string | undefined;
  /** the currency the cart is being converted to, while the engine reprices it (the UI shows progress) */
  converting: string | null;
  ticketsChosen(items: TicketRequest[]): Promise<void>;
  extraAdded(extraId: string): Promise<void>;
  extraChanged(itemId: string, quantity: number): Promise<void>;
  extraRemoved(itemId: string): Promise<void>;
  voucherApplied(code: string): Promise<boolean>;
  voucherRemoved(code: string): Promise<void>;
  currencyChosen(currency: string): Promise<void>;
  released(): Promise<void>;
  /** reads the held cart again (its names follow the chosen language) */
  refreshed(): Promise<void>;
  holdExpired(): void;
  errorDismissed(): void;
  reset(): void;
}

const initial = { cart: null, busy: false, error: null, expired: false, currency: undefined, converting: null };

export const cartStore = createStore<CartState>()((set, get) => {
  /** Runs one call that answers a cart; a gone cart means a fresh start, other errors are shown. */
  async function update(call: (cart: Cart | null) => Promise<Cart | null>): Promise<boolean> {
    set({ busy: true, error: null });
    try {
      const cart = await call(get().cart);
      set({ cart, busy: false, expired: false });
      return true;
    } catch (thrown) {
      const error = toApiError(thrown);
      if (recoveryFor(error) === 'start-over') set({ ...initial, currency: get().currency, expired: true });
      else set({ busy: false, error });
      return false;
    }
  }
  const withCart = (call: (cart: Cart) => Promise<Cart>) => update((cart) => (cart ? call(cart) : Promise.resolve(cart)));

  return {
    ...initial,
    async ticketsChosen(items) {
      await update(async (cart) => {
        if (items.length === 0) {
          if (cart) await api().releaseCart(cart.id);
          return null;
        }
        const currency = cart?.currency ?? get().currency;
        return api().createCart({ items, ...(currency && { currency }), ...(cart && { previousCartId: cart.id }) });
      });
    },
    extraAdded: (extraId) => withCart((cart) => api().addExtras(cart.id, [{ extraId, quantity: 1 }])).then(() => undefined),
    extraChanged: (itemId, quantity) => withCart((cart) => api().changeExtra(cart.id, itemId, quantity)).then(() => undefined),
    extraRemoved: (itemId) => withCart((cart) => api().removeExtra(cart.id, itemId)).then(() => undefined),
    voucherApplied: (code) => withCart((cart) => api().applyVoucher(cart.id, code.trim())),
    voucherRemoved: (code) => withCart((cart) => api().removeVoucher(cart.id, code)).then(() => undefined),
    async currencyChosen(currency) {
      const previous = get().currency;
      set({ currency, converting: currency });
      const ok = await withCart((cart) => api().switchCurrency(cart.id, currency));
      set({ converting: null, ...(!ok && { currency: previous }) });
    },
    async released() {
      const cart = get().cart;
      set({ ...initial }); // the sale ends: the next customer starts in the base currency
      if (cart) await api().releaseCart(cart.id).catch(() => undefined); // a gone cart is already released
    },
    async refreshed() {
      await withCart((cart) => api().cart(cart.id));
    },
    holdExpired() {
      set({ ...initial, currency: get().currency, expired: true });
    },
    errorDismissed() {
      set({ error: null, expired: false });
    },
    reset() {
      set({ ...initial });
    },
  };
});

export const useCart = <T>(selector: (state: CartState) => T): T => useStore(cartStore, selector);
