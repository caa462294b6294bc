import { ErrorAlert } from '../../components/ErrorAlert';
import { GiftCardForm, GiftCardParts } from '../../components/GiftCardStep';
import { PaymentPanel } from '../../components/PaymentPanel';
import { ThreeDSDialog } from '../../components/ThreeDSDialog';
import { useLocale, useT } from '../../i18n/i18n';
import { useCart } from '../../stores/cart';
import { checkoutStore, useCheckout } from '../../stores/checkout';
import { drawerStore } from '../../stores/drawer';
import { giftCardPaymentStore, useGiftCardPayment } from '../../stores/gift-card-payment';
import { useSession } from '../../stores/session';
import { isGiftCardCart } from './gift-cards';

/** Once the drawer the cash payment asked for is open: the cash step, with the cursor in the amount. */
function resumeCash(): void {
  requestAnimationFrame(() => document.getElementById('pay-cash')?.click());
}

/**
 * Paying for the held cart: gift cards first if any (each with the engine's figures and `Left to pay`), then card
 * or cash for the rest, the 3-D Secure dialog, and each failure with its own next step.
 */
export function Checkout({ cash }: { cash: boolean }) {
  const t = useT();
  const locale = useLocale();
  const cart = useCart((state) => state.cart);
  const cartBusy = useCart((state) => state.busy);
  const testTokens = useSession((state) => state.testTokens);
  const phase = useCheckout((state) => state.phase);
  const challenge = useCheckout((state) => state.challenge);
  const error = useCheckout((state) => state.error);
  const quote = useGiftCardPayment((state) => state.quote);
  const giftBusy = useGiftCardPayment((state) => state.busy);
  const giftError = useGiftCardPayment((state) => state.error);
  const actions = checkoutStore.getState();
  const gift = giftCardPaymentStore.getState();
  if (!cart) return null;
  const busy = phase !== 'idle' || cartBusy || giftBusy;
  // A gift card never pays for a gift card (contract §13): a gift-card cart has no gift-card step.
  const acceptsGiftCards = !isGiftCardCart(cart);
  return (
    <div className="checkout">
      {error && (
        <ErrorAlert t={t} error={error} onDismiss={actions.errorDismissed} {...(error.code === 'PAYMENT_PROVIDER_UNAVAILABLE' && { onRetry: () => void actions.retried() })} />
      )}
      {giftError && <ErrorAlert t={t} error={giftError} onDismiss={gift.errorDismissed} />}
      {phase === 'paying' && (
        <p role="status" className="working">
          {t('pay.working')}
        </p>
      )}
      {quote && <GiftCardParts t={t} locale={locale} quote={quote} busy={busy} onRemove={(code) => void gift.cardRemoved(code)} />}
      <PaymentPanel
        t={t}
        locale={locale}
        total={quote?.remaining ?? cart.total}
        testTokens={testTokens}
        busy={busy}
        cash={cash}
        onCard={(token) => void actions.cardPaid(token)}
        onCash={(tendered) => void actions.cashPaid(tendered)}
        beforeCash={() => drawerStore.getState().cashAllowed(resumeCash)}
        {...(acceptsGiftCards && {
          giftCard: {
            step: <GiftCardForm t={t} busy={busy} onCode={gift.codeEntered} />,
            covered: quote !== null && quote.remaining.amount === 0,
            onComplete: () => void actions.giftCardPaid(),
          },
        })}
      />
      {phase === 'challenge' && challenge && (
        <ThreeDSDialog t={t} url={challenge.url} reference={challenge.reference} onResult={actions.challengeAnswered} onCancel={actions.challengeCancelled} />
      )}
    </div>
  );
}
