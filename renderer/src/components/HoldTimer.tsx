import { useEffect, useState } from 'react';
import { formatCountdown } from '../format';
import type { Translate } from '../i18n/i18n';

interface Props {
  t: Translate;
  expiresAt: string;
  onExpired(): void;
}

/** The hold countdown from the cart's `expiresAt` (role timer), with a warning in its last minute. */
export function HoldTimer({ t, expiresAt, onExpired }: Props) {
  const deadline = Date.parse(expiresAt);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  const left = deadline - now;
  const expired = left <= 0;
  useEffect(() => {
    if (expired) onExpired();
  }, [expired, onExpired]);
  return (
    <div className={`hold ${left < 60_000 ? 'is-urgent' : ''}`}>
      <span>{t('hold.label')}</span>{' '}
      <span role="timer" aria-label={t('hold.label')} className="countdown">
        {formatCountdown(left)}
      </span>
      {left < 60_000 && left > 0 && (
        <p role="alert" className="warning">
          {t('hold.warning')}
        </p>
      )}
    </div>
  );
}
