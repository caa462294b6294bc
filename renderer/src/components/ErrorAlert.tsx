import type { ApiError } from '../api/errors';
import { recoveryFor } from '../recovery';
import type { Translate } from '../i18n/i18n';

interface Props {
  t: Translate;
  error: ApiError;
  onDismiss?(): void;
  onRetry?(): void;
}

/** An error as the API said it (in the chosen language), and what to do next, chosen by type and code. */
export function ErrorAlert({ t, error, onDismiss, onRetry }: Props) {
  return (
    <div role="alert" className="error" data-code={error.code}>
      <p>{error.message}</p>
      <p className="next-step">{t(`error.${recoveryFor(error)}`)}</p>
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
