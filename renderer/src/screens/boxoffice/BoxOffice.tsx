import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useConfirm } from '../../components/ConfirmDialog';
import { useT } from '../../i18n/i18n';
import { cartStore, useCart } from '../../stores/cart';
import { checkoutStore, useCheckout } from '../../stores/checkout';
import { useCatalog } from '../../stores/catalog';
import './box-office.css';
import './shifts.css';
import { CartPanel } from '../shared/CartPanel';
import { Checkout } from '../shared/Checkout';
import { Confirmation } from '../shared/Confirmation';
import { EventList } from '../shared/EventList';
import { startNewSale } from '../shared/new-sale';
import { TicketPicker } from '../shared/TicketPicker';
import { useConnectivity } from '../../stores/connectivity';
import { Holdings } from './Holdings';
import { GiftCardBalance } from './GiftCardBalance';
import { OrderLookup } from './OrderLookup';
import { SyncInbox } from './SyncInbox';
import { PrintQueue, PrintQueueButton } from './PrintQueue';
import { drawerStore, useDrawer, type DrawerDialog } from '../../stores/drawer';
import { useShiftT } from '../../i18n/shifts';
import { DrawerDialogs } from './DrawerDialogs';
import { DrawerButtons } from './DrawerIndicator';
import { Shifts } from './Shifts';
import { ZReport } from './ZReport';

/** The drawer's keys (docs/ui.md): Shift with the function key of the nearest sale step; Shift+F8 lists today's shifts. */
const DRAWER_KEYS: Readonly<Record<string, DrawerDialog>> = { F2: 'open', F3: 'payIn', F4: 'payOut', F9: 'close' };

/** Moves the keyboard focus once React has drawn what the key opened. */
const focusSoon = (id: string) => requestAnimationFrame(() => document.getElementById(id)?.focus());
/** Where a sale starts from the keyboard: the first quantity or the seat map of the date shown, else the first date on sale. */
const SALE_START = ['.picker-column input[type="number"], .picker-column .rows [tabindex="0"]', '.events-column button.occurrence:not(:disabled)'];
/** `unlessFocused`: leave the cursor alone once staff put it somewhere themselves (a fresh page). */
function focusSaleStart(unlessFocused = false, tries = 10): void {
  requestAnimationFrame(() => {
    if (unlessFocused && document.activeElement !== null && document.activeElement !== document.body) return;
    const target = SALE_START.map((selector) => document.querySelector<HTMLElement>(selector)).find((found) => found !== null);
    if (target) target.focus();
    else if (tries > 0) setTimeout(() => focusSaleStart(unlessFocused, tries - 1), 50); // the sale screen is still being drawn
  });
}

/**
 * Staff mode: everything on one dense screen, with keys for the common steps. The cart column keeps its
 * pay bar in view at 1366×768; a fresh page has the cursor on the first date on sale; a date puts the cursor in
 * its first quantity (or on its seat map), Enter holds, F2 puts it in the cash amount, Enter takes the exact
 * amount: a 2-ticket cash sale in four keys once the date is chosen. F6 starts the next sale, F8 finds an order.
 */
export function BoxOffice() {
  const t = useT();
  const st = useShiftT();
  const zReport = useDrawer((state) => state.closed !== null);
  const [shifts, setShifts] = useState(false);
  const cart = useCart((state) => state.cart);
  const order = useCheckout((state) => state.order);
  const [lookup, setLookup] = useState(false);
  const [inbox, setInbox] = useState(false);
  const [printQueue, setPrintQueue] = useState(false);
  const [balance, setBalance] = useState(false);
  const syncing = useConnectivity((state) => state.waiting !== null);
  const eventsShown = useCatalog((state) => state.events.length > 0);
  const conflicts = useConnectivity((state) => state.conflicts.length);
  const confirm = useConfirm(t);
  const { ask } = confirm;
  /** Releasing gives the tickets back for good: staff confirm it (Esc or the button). */
  const askRelease = useCallback(async () => {
    if (await ask({ title: t('release.title'), body: <p>{t('release.body')}</p>, confirm: t('release.confirm') })) await cartStore.getState().released();
  }, [ask, t]);

  /** Back from a side screen (orders, sync inbox, print queue) to the sale, or its confirmation, as it was. */
  const backToSale = useCallback(() => {
    setLookup(false);
    setInbox(false);
    setPrintQueue(false);
    setBalance(false);
    setShifts(false);
    drawerStore.getState().zReportLeft();
    focusSaleStart();
  }, []);
  /** F6 or the button: the sale on screen is done with; the next one starts where the keyboard left off. */
  const newSale = useCallback(async () => {
    if (checkoutStore.getState().order) await startNewSale({ releaseHold: false, keepDate: true });
    backToSale();
  }, [backToSale]);

  // A fresh page puts the cursor on the first date on sale: Enter chooses it and its first quantity takes the number.
  useEffect(() => {
    if (eventsShown) focusSaleStart(true);
  }, [eventsShown]);

  useEffect(() => {
    const keys = (event: KeyboardEvent) => {
      const click = (id: string) => document.getElementById(id)?.click();
      if (document.querySelector('dialog[open]')) return; // a dialog answers its own keys
      const drawerDialog = event.shiftKey ? DRAWER_KEYS[event.key] : undefined;
      if (event.shiftKey && event.key === 'F8') setShifts(true);
      else if (drawerDialog) drawerStore.getState().dialogRequested(drawerDialog);
      else if (event.key === 'F9' && drawerStore.getState().closed) click('report-print'); // the Z report on screen: print again
      else if (event.shiftKey && /^F\d+$/.test(event.key)) return; // no other Shift+F-key is the box office's
      // F6 never gives up a held cart (that is Esc, after a confirmation): mid-sale it only comes back to the sale.
      else if (event.key === 'F6') void newSale();
      else if (event.key === 'F2') {
        click('pay-cash');
        focusSoon('cash-tendered');
      } else if (event.key === 'F3') {
        click('pay-card');
        focusSoon('card-charge');
      } else if (event.key === 'F4') document.getElementById('voucher-code')?.focus();
      else if (event.key === 'F7') {
        // F4 was the voucher's before gift cards came: gift cards take the next free key
        click('pay-gift-card');
        focusSoon('gift-card-code');
      } else if (event.key === 'F8') {
        setLookup(true);
        focusSoon('lookup-query');
      } else if (event.key === 'Escape' && cartStore.getState().cart) {
        void askRelease();
      } else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', keys);
    return () => window.removeEventListener('keydown', keys);
  }, [askRelease, newSale]);

  // The drawer's dialogs open over any screen (its keys work everywhere in the box office).
  const screen = (content: ReactNode) => (
    <>
      <DrawerDialogs />
      {content}
    </>
  );
  // Back from a side screen: the cursor where the sale goes on.
  if (zReport) return screen(<ZReport onBack={backToSale} />);
  if (shifts) return screen(<Shifts onBack={backToSale} />);
  if (lookup) return screen(<OrderLookup onBack={backToSale} />);
  if (inbox) return screen(<SyncInbox onBack={backToSale} />);
  if (printQueue) return screen(<PrintQueue onBack={backToSale} />);
  if (balance) return screen(<GiftCardBalance onBack={backToSale} />);
  if (order) {
    return screen(
      <>
        <Confirmation order={order} onNewSale={() => void newSale()} />
        <p className="shortcuts">{t('boxOffice.keysDone')}</p>
      </>,
    );
  }
  return screen(
    <div className="box-office">
      {confirm.dialog}
      <div className="column events-column">
        <EventList />
        <button type="button" className="secondary" onClick={() => setLookup(true)}>
          {t('lookup.open')}
        </button>
        <button type="button" className="secondary" onClick={() => setBalance(true)}>
          {t('giftCardBalance.open')}
        </button>
        <PrintQueueButton onOpen={() => setPrintQueue(true)} />
        <DrawerButtons onShifts={() => setShifts(true)} />
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
        <p className="shortcuts">{t('boxOffice.keys')}</p>
        <p className="shortcuts">{st('drawer.keys')}</p>
      </div>
    </div>,
  );
}
