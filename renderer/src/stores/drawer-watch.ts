import { checkoutStore } from './checkout';
import { drawerStore } from './drawer';
import { ordersStore } from './orders';

/**
 * Keeps the header's drawer current: read now, after every sale and cancellation made here (they move the
 * expected cash), and every `intervalMs` for what other tills or processes of the engine did.
 */
export function watchDrawer(intervalMs = 15_000): () => void {
  const refresh = () => void drawerStore.getState().refreshed();
  refresh();
  const timer = setInterval(refresh, intervalMs);
  const sales = checkoutStore.subscribe((state, previous) => {
    if (state.order !== null && state.order !== previous.order) refresh();
  });
  const cancellations = ordersStore.subscribe((state, previous) => {
    if (state.found !== previous.found && state.found?.status === 'cancelled') refresh();
  });
  return () => {
    clearInterval(timer);
    sales();
    cancellations();
  };
}
