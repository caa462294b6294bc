import { useCallback, useEffect, useState } from 'react';
import { useConfirm } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { HoldTimer } from '../../components/HoldTimer';
import { LanguageButtons } from './LanguageButtons';
import { StepBar } from '../../components/StepBar';
import { TotalLine } from '../../components/TotalLine';
import { useLocale, useT } from '../../i18n/i18n';
import { cartStore, useCart } from '../../stores/cart';
import { catalogStore, useCatalog } from '../../stores/catalog';
import { useCheckout } from '../../stores/checkout';
import { useSession } from '../../stores/session';
import { Confirmation } from '../shared/Confirmation';
import { EventList } from '../shared/EventList';
import { startNewSale } from '../shared/new-sale';
import { TicketPicker } from '../shared/TicketPicker';
import { IdleGuard } from './IdleGuard';
import { KioskBanner } from './KioskBanner';
import { KioskPay } from './KioskPay';
import { StaffExit } from './StaffExit';

type Step = 'attract' | 'event' | 'tickets' | 'pay';
const STEPS = ['event', 'tickets', 'pay'] as const;
/** the confirmation goes back to the start screen after this long */
export const CONFIRMATION_SECONDS = 20;
/** …and after this long when the tickets were not printed: time to note the order number for the box office */
export const NOT_PRINTED_SECONDS = 60;

/**
 * Self-service on a portrait touch screen: an attract screen with the languages, then always the same three
 * steps (date, tickets, pay) with the step bar on top and the total, the countdown and the big buttons in
 * the lower half. Card only. A 2-ticket sale: start, date, +, +, Continue, Pay by card.
 */
export function Kiosk() {
  const t = useT();
  const locale = useLocale();
  const [step, setStep] = useState<Step>('attract');
  // The pay step puts its Pay by card button in the fixed bottom bar, always in sight.
  const [actionSlot, setActionSlot] = useState<HTMLDivElement | null>(null);
  const idleSeconds = useSession((state) => state.idleSeconds);
  const cart = useCart((state) => state.cart);
  const expired = useCart((state) => state.expired);
  const order = useCheckout((state) => state.order);
  const paying = useCheckout((state) => state.phase === 'paying' || state.phase === 'challenge');
  const catalogError = useCatalog((state) => state.error);
  const confirm = useConfirm(t);
  // The start screen names the venue: the catalog is read before the first customer arrives.
  useEffect(() => {
    void catalogStore.getState().eventsRequested();
  }, []);
  const startOver = useCallback(() => {
    setStep('attract');
    void startNewSale({ releaseHold: true, keepDate: false });
  }, []);
  const onExpired = useCallback(() => {
    cartStore.getState().holdExpired();
    void catalogStore.getState().inventoryRefreshed();
  }, []);
  const askStartOver = async () => {
    if (!cart || (await confirm.ask({ title: t('kiosk.startOverTitle'), body: <p>{t('kiosk.startOverBody')}</p>, confirm: t('kiosk.startOverYes'), cancel: t('kiosk.startOverNo') }))) startOver();
  };

  if (step === 'attract') {
    return (
      <main className="kiosk attract">
        <StaffExit />
        <KioskBanner showcase />
        <h2>{t('kiosk.welcome')}</h2>
        <button type="button" className="primary huge" onClick={() => setStep('event')}>
          {t('kiosk.start')}
        </button>
        <LanguageButtons label={t('settings.language')} />
      </main>
    );
  }

  if (order) {
    return (
      <main className="kiosk">
        <Confirmation order={order} onNewSale={startOver} returnInSeconds={CONFIRMATION_SECONDS} returnInSecondsIfNotPrinted={NOT_PRINTED_SECONDS} />
      </main>
    );
  }

  const index = STEPS.indexOf(step);
  const back = index > 0 ? STEPS[index - 1] : undefined;
  return (
    <main className="kiosk">
      <IdleGuard idleSeconds={idleSeconds} paused={paying} onTimeout={startOver} />
      <StaffExit />
      {confirm.dialog}
      <StepBar label={t('kiosk.steps')} steps={[t('kiosk.stepDate'), t('kiosk.stepTickets'), t('kiosk.stepPay')]} current={index} />
      <KioskBanner />
      <div className="kiosk-body">
        {catalogError && <ErrorAlert t={t} error={catalogError} customer />}
        {expired && (
          <div role="alert" className="error">
            <p>{t('hold.expired')}</p>
            <button type="button" onClick={cartStore.getState().errorDismissed}>
              {t('error.dismiss')}
            </button>
          </div>
        )}
        {step === 'event' && <EventList pictures onChosen={() => setStep('tickets')} />}
        {step === 'tickets' && <TicketPicker holdLabel={t('kiosk.continue')} onDone={() => setStep('pay')} />}
        {step === 'pay' && (cart ? <KioskPay actionSlot={actionSlot} /> : <p className="hint">{t('cart.empty')}</p>)}
      </div>
      <div className="kiosk-bar">
        {step === 'pay' && cart && <div ref={setActionSlot} className="kiosk-action-slot" />}
        {cart && (
          <div className="kiosk-summary">
            <HoldTimer t={t} expiresAt={cart.expiresAt} onExpired={onExpired} />
            <TotalLine id="total-label" label={t('total.label')} total={cart.total} locale={locale} />
          </div>
        )}
        <div className="kiosk-nav">
          <button type="button" className="secondary big" disabled={paying} onClick={() => void askStartOver()}>
            {t('kiosk.cancel')}
          </button>
          {back && (
            <button type="button" className="secondary big" disabled={paying} onClick={() => setStep(back)}>
              {t('kiosk.back')}
            </button>
          )}
        </div>
        <LanguageButtons label={t('settings.language')} />
      </div>
    </main>
  );
}
