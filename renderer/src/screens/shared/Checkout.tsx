import { ErrorAlert } from '../../components/ErrorAlert';
import { PaymentPanel } from '../../components/PaymentPanel';
import { ThreeDSDialog } from '../../components/ThreeDSDialog';
import { useLocale, useT } from '../../i18n/i18n';
import { useCart } from '../../stores/cart';
import { checkoutStore, useCheckout } from '../../stores/checkout';
import { useSession } from '../../stores/session';

/** Paying for the held cart: card or cash, the 3-D Secure dialog, and each failure with its own next step. */
export function Checkout({ cash }: { cash: boolean }) {
  const t = useT();
  const locale = useLocale();
  const cart = useCart((state) => state.cart);
  const cartBusy = useCart((state) => state.busy);
  const testTokens = useSession((state) => state.testTokens);
  const phase = useCheckout((state) => state.phase);
  const challenge = useCheckout((state) => state.challenge);
  const error = useCheckout((state) => state.error);
  const actions = checkoutStore.getState();
  if (!cart) return null;
  return (
    <div className="checkout">
      {error && (
        <ErrorAlert t={t} error={error} onDismiss={actions.errorDismissed} {...(error.code === 'PAYMENT_PROVIDER_UNAVAILABLE' && { onRetry: () => void actions.retried() })} />
      )}
      {phase === 'paying' && (
        <p role="status" className="working">
          {t('pay.working')}
        </p>
      )}
      <PaymentPanel
        t={t}
        locale={locale}
        total={cart.total}
        testTokens={testTokens}
        busy={phase !== 'idle' || cartBusy}
        cash={cash}
        onCard={(token) => void actions.cardPaid(token)}
        onCash={(tendered) => void actions.cashPaid(tendered)}
      />
      {phase === 'challenge' && challenge && (
        <ThreeDSDialog t={t} url={challenge.url} reference={challenge.reference} onResult={actions.challengeAnswered} onCancel={actions.challengeCancelled} />
      )}
    </div>
  );
}
