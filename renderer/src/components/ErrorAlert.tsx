import type { ApiError } from '../api/errors';
import { recoveryFor } from '../recovery';
import type { Translate } from '../i18n/i18n';

interface Props {
  t: Translate;
  error: ApiError;
  onDismiss?(): void;
  onRetry?(): void;
  /** kiosk: words for customers — the engine's own message only where it is about their card or entry */
  customer?: boolean;
}

/** Errors whose engine message speaks to the customer (their card, their voucher); others get a plain line. */
const CUSTOMER_FACING = new Set(['other-payment', 'fix-input', 'authenticate', 'start-over']);

/** An error as the API said it (in the chosen language), and what to do next, chosen by type and code. */
export function ErrorAlert({ t, error, onDismiss, onRetry, customer = false }: Props) {
  const recovery = recoveryFor(error);
  return (
    <div role="alert" className="error" data-code={error.code}>
      <p>{customer && !CUSTOMER_FACING.has(recovery) ? t('kioskError.message') : error.message}</p>
      <p className="next-step">{t(customer ? `kioskError.${recovery}` : `error.${recovery}`)}</p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          {t('error.retry')}
        </button>
      )}
      {onDismiss && (
        <button type="button" className="secondary" onClick={onDismiss}>
          {t('error.dismiss')}
        </button>
      )}
    </div>
  );
}
