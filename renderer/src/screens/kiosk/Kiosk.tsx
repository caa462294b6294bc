import { useCallback, useState } from 'react';
import { useT } from '../../i18n/i18n';
import { useCart } from '../../stores/cart';
import { useCatalog } from '../../stores/catalog';
import { useCheckout } from '../../stores/checkout';
import { useSession } from '../../stores/session';
import { CartPanel } from '../shared/CartPanel';
import { Checkout } from '../shared/Checkout';
import { Confirmation } from '../shared/Confirmation';
import { EventList } from '../shared/EventList';
import { startNewSale } from '../shared/new-sale';
import { TicketPicker } from '../shared/TicketPicker';
import { IdleGuard } from './IdleGuard';
import { StaffExit } from './StaffExit';

type Step = 'attract' | 'event' | 'tickets' | 'extras' | 'pay';

/** Self-service: an attract screen, then one step per screen with large touch targets; card payment only. */
export function Kiosk() {
  const t = useT();
  const [step, setStep] = useState<Step>('attract');
  const idleSeconds = useSession((state) => state.idleSeconds);
  const cart = useCart((state) => state.cart);
  const expired = useCart((state) => state.expired);
  const occurrenceId = useCatalog((state) => state.occurrenceId);
  const order = useCheckout((state) => state.order);
  const paying = useCheckout((state) => state.phase === 'paying' || state.phase === 'challenge');
  const extrasOffered = useCatalog((state) => (state.inventory?.extras.length ?? 0) > 0);
  const startOver = useCallback(() => {
    setStep('attract');
    void startNewSale({ releaseHold: true, keepDate: false });
  }, []);

  if (step === 'attract') {
    return (
      <main className="kiosk attract">
        <StaffExit />
        <h2>{t('kiosk.welcome')}</h2>
        <button type="button" className="primary huge" onClick={() => setStep('event')}>
          {t('kiosk.start')}
        </button>
      </main>
    );
  }

  const steps: Step[] = extrasOffered || cart?.options.extras ? ['event', 'tickets', 'extras', 'pay'] : ['event', 'tickets', 'pay'];
  const index = Math.max(0, steps.indexOf(step));
  const next = steps[index + 1];
  const back = steps[index - 1];
  const canGoOn = step === 'event' ? occurrenceId !== null : cart !== null;

  return (
    <main className="kiosk">
      <IdleGuard idleSeconds={idleSeconds} paused={paying} onTimeout={startOver} />
      <StaffExit />
      {order ? (
        <Confirmation order={order} onNewSale={startOver} />
      ) : (
        <>
          <p className="progress">{t('kiosk.step', { step: index + 1, steps: steps.length })}</p>
          {expired && step !== 'tickets' && <CartPanel extras={false} controls={false} />}
          {step === 'event' && <EventList onChosen={() => setStep('tickets')} />}
          {step === 'tickets' && (
            <div className="kiosk-tickets">
              <TicketPicker holdLabel={t('tickets.hold')} />
              <CartPanel extras={false} controls={false} />
            </div>
          )}
          {step === 'extras' && <CartPanel controls={false} />}
          {step === 'pay' && (
            <div className="kiosk-pay">
              <h2>{t('kiosk.review')}</h2>
              <CartPanel extras={false} />
              <Checkout cash={false} />
            </div>
          )}
          <nav className="kiosk-nav">
            <button type="button" className="secondary big" onClick={startOver}>
              {t('kiosk.cancel')}
            </button>
            {back && (
              <button type="button" className="secondary big" onClick={() => setStep(back)}>
                {t('kiosk.back')}
              </button>
            )}
            {next && (
              <button type="button" className="primary big" disabled={!canGoOn} onClick={() => setStep(next)}>
                {t('kiosk.next')}
              </button>
            )}
          </nav>
        </>
      )}
    </main>
  );
}
