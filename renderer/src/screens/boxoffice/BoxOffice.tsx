import { useCallback, useEffect, useState } from 'react';
import { useConfirm } from '../../components/ConfirmDialog';
import { useT } from '../../i18n/i18n';
import { cartStore, useCart } from '../../stores/cart';
import { useCheckout } from '../../stores/checkout';
import { CartPanel } from '../shared/CartPanel';
import { Checkout } from '../shared/Checkout';
import { Confirmation } from '../shared/Confirmation';
import { EventList } from '../shared/EventList';
import { startNewSale } from '../shared/new-sale';
import { TicketPicker } from '../shared/TicketPicker';
import { useConnectivity } from '../../stores/connectivity';
import { Holdings } from './Holdings';
import { OrderLookup } from './OrderLookup';
import { SyncInbox } from './SyncInbox';
import { PrintQueue, PrintQueueButton } from './PrintQueue';

/** Moves the keyboard focus once React has drawn what the key opened. */
const focusSoon = (id: string) => requestAnimationFrame(() => document.getElementById(id)?.focus());

/**
 * Staff mode: everything on one dense screen, with keys for the common steps. The cart column keeps its
 * pay bar in view at 1366×768; a date puts the cursor in its first quantity, Enter holds, F2 puts it in the
 * cash amount, Enter takes the exact amount: a 2-ticket cash sale in four keys.
 */
export function BoxOffice() {
  const t = useT();
  const cart = useCart((state) => state.cart);
  const order = useCheckout((state) => state.order);
  const [lookup, setLookup] = useState(false);
  const [inbox, setInbox] = useState(false);
  const [printQueue, setPrintQueue] = useState(false);
  const syncing = useConnectivity((state) => state.waiting !== null);
  const conflicts = useConnectivity((state) => state.conflicts.length);
  const confirm = useConfirm(t);
  const { ask } = confirm;
  /** Releasing gives the tickets back for good: staff confirm it (Esc or the button). */
  const askRelease = useCallback(async () => {
    if (await ask({ title: t('release.title'), body: <p>{t('release.body')}</p>, confirm: t('release.confirm') })) await cartStore.getState().released();
  }, [ask, t]);

  useEffect(() => {
    const keys = (event: KeyboardEvent) => {
      const click = (id: string) => document.getElementById(id)?.click();
      if (document.querySelector('dialog[open]')) return; // a dialog answers its own keys
      if (event.key === 'F2') {
        click('pay-cash');
        focusSoon('cash-tendered');
      } else if (event.key === 'F3') {
        click('pay-card');
        focusSoon('card-charge');
      } else if (event.key === 'F4') document.getElementById('voucher-code')?.focus();
      else if (event.key === 'F8') setLookup((open) => !open);
      else if (event.key === 'Escape' && cartStore.getState().cart) {
        void askRelease();
      } else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', keys);
    return () => window.removeEventListener('keydown', keys);
  }, [askRelease]);

  if (lookup) return <OrderLookup onBack={() => setLookup(false)} />;
  if (inbox) return <SyncInbox onBack={() => setInbox(false)} />;
  if (printQueue) return <PrintQueue onBack={() => setPrintQueue(false)} />;
  if (order) return <Confirmation order={order} onNewSale={() => void startNewSale({ releaseHold: false, keepDate: true })} />;
  return (
    <div className="box-office">
      {confirm.dialog}
      <div className="column events-column">
        <EventList />
        <button type="button" className="secondary" onClick={() => setLookup(true)}>
          {t('lookup.open')}
        </button>
        <PrintQueueButton onOpen={() => setPrintQueue(true)} />
        {syncing && (
          <button type="button" className={conflicts > 0 ? 'danger' : 'secondary'} onClick={() => setInbox(true)}>
            {t('sync.open', { count: conflicts })}
          </button>
        )}
      </div>
      <div className="column picker-column">
        <TicketPicker focusFirst />
        <Holdings />
      </div>
      <div className="column cart-column">
        <div className="cart-scroll">
          <CartPanel />
        </div>
        {cart && (
          <div className="pay-bar">
            <Checkout cash />
            <button
              type="button"
              className="secondary"
              onClick={() => void askRelease()}
            >
              {t('cart.release')}
            </button>
          </div>
        )}
        <p className="shortcuts">{t('shortcuts.hint')}</p>
      </div>
    </div>
  );
}
