import { createStore, useStore } from 'zustand';
import { toApiError, type ApiError } from '../api/errors';
import { api } from '../api/service';
import type { Order, Payment } from '../api/types';
import { cartStore } from './cart';
import { drawerStore } from './drawer';
import { giftCardPaymentStore } from './gift-card-payment';

/**
 * Paying for the held cart (spec §4.7, §7.4, §7.6). Every new attempt gets a new Idempotency-Key; only a
 * provider failure (502, the key not used up) is tried again with the same one. A 3-D Secure challenge is
 * shown in a dialog; its result is sent with a new key. Gift cards entered for the cart (gift-card-payment)
 * go with every attempt, in the order entered; card or cash pays what they leave (contract §13).
 */
export interface Challenge {
  readonly url: string;
  readonly reference: string;
}

export interface CheckoutState {
  phase: 'idle' | 'paying' | 'challenge' | 'done';
  challenge: Challenge | null;
  order: Order | null;
  error: ApiError | null;
  /** the last attempt, kept so a provider failure can be retried under the same key */
  last: { payment: Payment; key: string } | null;
  cardPaid(token: string): Promise<void>;
  cashPaid(tendered?: Payment['tendered']): Promise<void>;
  /** the gift cards cover the whole total (the engine's quote left nothing to pay) */
  giftCardPaid(): Promise<void>;
  challengeAnswered(result: { outcome: string; authenticationResult?: string }): Promise<void>;
  challengeCancelled(): void;
  retried(): Promise<void>;
  errorDismissed(): void;
  reset(): void;
}

const initial = { phase: 'idle' as const, challenge: null, order: null, error: null, last: null };

export const checkoutStore = createStore<CheckoutState>()((set, get) => {
  async function attempt(asked: Payment, key: string = crypto.randomUUID()): Promise<void> {
    const cart = cartStore.getState().cart;
    if (!cart) return;
    const codes = giftCardPaymentStore.getState().codes;
    const payment: Payment = codes.length > 0 && !asked.giftCards ? { ...asked, giftCards: codes.map((code) => ({ code })) } : asked;
    set({ phase: 'paying', error: null, challenge: null, last: { payment, key } });
    // An error of an earlier cart step (a refused voucher) is over once staff move on to paying (#22).
    if (cartStore.getState().error) cartStore.setState({ error: null });
    try {
      const order = await api().placeOrder({ cartId: cart.id, expectedTotal: cart.total, payment }, key);
      set({ ...initial, phase: 'done', order });
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error.code === 'PAYMENT_AUTHENTICATION_REQUIRED') {
        const challenge = parseAction(error.details.action);
        if (challenge) return set({ phase: 'challenge', challenge, error: null });
      }
      if (error.code === 'CART_EXPIRED') {
        cartStore.getState().holdExpired();
        return set({ ...initial });
      }
      // cash with no open shift where the engine requires one (contract §14): the Open drawer dialog, and once the
      // drawer is open the same payment again (a new attempt, a new key: nothing was charged)
      if (error.code === 'SHIFT_NOT_OPEN') drawerStore.getState().shiftRequired(() => void attempt(asked));
      if (error.code === 'EXPECTED_TOTAL_MISMATCH') await refreshCart();
      // a card spent elsewhere meanwhile, or voided: the cards are quoted again, so `Left to pay` is current
      if (error.code.startsWith('GIFT_CARD_')) await giftCardPaymentStore.getState().cartRepriced();
      set({ phase: 'idle', error });
    }
  }

  return {
    ...initial,
    cardPaid: (token) => attempt({ method: 'card', token }),
    cashPaid: (tendered) => attempt({ method: 'cash', ...(tendered && { tendered }) }),
    giftCardPaid: () => attempt({ method: 'giftCard' }),
    async challengeAnswered(result) {
      const token = get().last?.payment.token;
      if (get().phase !== 'challenge' || !token) return;
      if (!result.authenticationResult) return set({ phase: 'idle', challenge: null });
      await attempt({ method: 'card', token, authenticationResult: result.authenticationResult });
    },
    challengeCancelled() {
      set({ phase: 'idle', challenge: null });
    },
    async retried() {
      const last = get().last;
      if (last && get().error?.code === 'PAYMENT_PROVIDER_UNAVAILABLE') await attempt(last.payment, last.key);
    },
    errorDismissed() {
      set({ error: null });
    },
    reset() {
      set({ ...initial });
    },
  };
});

// A challenge, an error or a retry belongs to the cart it was for: another cart (or none) starts afresh.
cartStore.subscribe((state, previous) => {
  if (state.cart?.id !== previous.cart?.id && checkoutStore.getState().phase !== 'done') checkoutStore.getState().reset();
  // A new step on the cart (a voucher, an extra) makes an earlier payment error old news (#22).
  else if (state.busy && !previous.busy && checkoutStore.getState().error) checkoutStore.getState().errorDismissed();
});

/** details.action is the provider's action as a JSON string (spec §7.3). */
export function parseAction(action: unknown): Challenge | null {
  if (typeof action !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(action);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { challengeUrl, reference } = parsed as Record<string, unknown>;
    return typeof challengeUrl === 'string' && typeof reference === 'string' ? { url: challengeUrl, reference } : null;
  } catch {
    return null; // an action the UI cannot read: the caller shows the error, and another card or cash remains
  }
}

async function refreshCart(): Promise<void> {
  const cart = cartStore.getState().cart;
  if (!cart) return;
  try {
    cartStore.setState({ cart: await api().cart(cart.id) });
  } catch (error) {
    cartStore.setState({ error: toApiError(error) });
  }
}

export const useCheckout = <T>(selector: (state: CheckoutState) => T): T => useStore(checkoutStore, selector);
