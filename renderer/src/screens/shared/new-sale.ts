import { cartStore } from '../../stores/cart';
import { catalogStore } from '../../stores/catalog';
import { checkoutStore } from '../../stores/checkout';
import { sessionStore } from '../../stores/session';

/**
 * After a sale (or when a kiosk customer walks away): nothing of this customer's reaches the next one —
 * the cart and its currency, the checkout with any open challenge, and on a kiosk the language.
 */
export async function startNewSale(options: { releaseHold: boolean; keepDate: boolean }): Promise<void> {
  if (options.releaseHold) await cartStore.getState().released();
  else cartStore.getState().reset();
  checkoutStore.getState().reset();
  sessionStore.getState().saleEnded();
  if (options.keepDate) await catalogStore.getState().inventoryRefreshed();
  else await catalogStore.getState().occurrenceChosen(null);
}
