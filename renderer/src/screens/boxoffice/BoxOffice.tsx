import { useEffect, useState } from 'react';
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

/** Staff mode: everything on one dense screen, with keys for the common steps. */
export function BoxOffice() {
  const t = useT();
  const cart = useCart((state) => state.cart);
  const order = useCheckout((state) => state.order);
  const [lookup, setLookup] = useState(false);
  const [inbox, setInbox] = useState(false);
  const syncing = useConnectivity((state) => state.waiting !== null);
  const conflicts = useConnectivity((state) => state.conflicts.length);

  useEffect(() => {
    const keys = (event: KeyboardEvent) => {
      const click = (id: string) => document.getElementById(id)?.click();
      if (event.key === 'F2') click('pay-cash');
      else if (event.key === 'F3') click('pay-card');
      else if (event.key === 'F4') document.getElementById('voucher-code')?.focus();
      else if (event.key === 'F8') setLookup((open) => !open);
      else if (event.key === 'Escape' && !document.querySelector('dialog[open]')) void cartStore.getState().released();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', keys);
    return () => window.removeEventListener('keydown', keys);
  }, []);

  if (lookup) return <OrderLookup onBack={() => setLookup(false)} />;
  if (inbox) return <SyncInbox onBack={() => setInbox(false)} />;
  if (order) return <Confirmation order={order} onNewSale={() => void startNewSale({ releaseHold: false, keepDate: true })} />;
  return (
    <div className="box-office">
      <div className="column events-column">
        <EventList />
        <button type="button" className="secondary" onClick={() => setLookup(true)}>
          {t('lookup.open')}
        </button>
        {syncing && (
          <button type="button" className={conflicts > 0 ? 'danger' : 'secondary'} onClick={() => setInbox(true)}>
            {t('sync.open', { count: conflicts })}
          </button>
        )}
      </div>
      <div className="column picker-column">
        <TicketPicker />
        <Holdings />
      </div>
      <div className="column cart-column">
        <CartPanel />
        {cart && (
          <>
            <Checkout cash />
            <button type="button" className="secondary" onClick={() => void cartStore.getState().released()}>
              {t('cart.release')}
            </button>
          </>
        )}
        <p className="shortcuts">{t('shortcuts.hint')}</p>
      </div>
    </div>
  );
}
