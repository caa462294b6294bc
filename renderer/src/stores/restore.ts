import { api } from '../api/service';
import { cartStore } from './cart';
import { catalogStore } from './catalog';

/**
 * The held cart's id survives a reload of the page (the desktop app reloads a crashed renderer): it is
 * kept in session storage, and on start the cart is read back from the engine. A gone cart is forgotten.
 */
const KEY = 'kassa.cartId';

function remember(cartId: string | undefined): void {
  try {
    if (cartId) sessionStorage.setItem(KEY, cartId);
    else sessionStorage.removeItem(KEY);
  } catch {
    // storage disabled: a reload then starts a fresh sale, and the old hold times out on its own
  }
}

export async function restoreCart(): Promise<void> {
  let saved: string | null = null;
  try {
    saved = sessionStorage.getItem(KEY);
  } catch {
    saved = null; // storage disabled: nothing to restore
  }
  cartStore.subscribe((state, previous) => {
    if (state.cart?.id !== previous.cart?.id) remember(state.cart?.id);
  });
  if (!saved) return;
  try {
    const cart = await api().cart(saved);
    cartStore.setState({ cart, expired: false });
    const occurrenceId = cart.items.find((item) => item.occurrenceId)?.occurrenceId;
    if (occurrenceId) await catalogStore.getState().occurrenceChosen(occurrenceId);
  } catch {
    remember(undefined); // expired, ordered or unknown: start afresh
  }
}
