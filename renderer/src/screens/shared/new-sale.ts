import { cartStore } from '../../stores/cart';
import { catalogStore } from '../../stores/catalog';
import { checkoutStore } from '../../stores/checkout';

/** After a sale (or when a kiosk customer walks away): empty cart and checkout, fresh availability. */
export async function startNewSale(options: { releaseHold: boolean; keepDate: boolean }): Promise<void> {
  if (options.releaseHold) await cartStore.getState().released();
  else cartStore.getState().reset();
  checkoutStore.getState().reset();
  if (options.keepDate) await catalogStore.getState().inventoryRefreshed();
  else await catalogStore.getState().occurrenceChosen(null);
}
