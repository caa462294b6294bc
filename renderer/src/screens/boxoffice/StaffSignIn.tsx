import { useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/i18n';
import { sessionStore, useSession } from '../../stores/session';

/**
 * The box office's sign-in: the staff PIN, keyboard first — the field has the focus and Enter signs in. A wrong
 * PIN, the lock after too many, or a session that ended are said in an alert. The sale on screen before a session
 * ended is kept in its store and is back after the sign-in.
 */
export function StaffSignIn() {
  const t = useT();
  const { busy, error, retryAfter } = useSession((state) => state.signIn);
  const [pin, setPin] = useState('');
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), [error]);
  const message =
    error === 'wrong'
      ? t('signIn.wrong')
      : error === 'locked'
        ? t('signIn.locked', { minutes: Math.max(1, Math.ceil((retryAfter ?? 300) / 60)) })
        : error === 'ended'
          ? t('signIn.ended')
          : error === 'failed'
            ? t('signIn.failed')
            : null;
  return (
    <section className="sign-in" aria-labelledby="sign-in-heading">
      <h2 id="sign-in-heading">{t('signIn.heading')}</h2>
      {message !== null && (
        <p role="alert" className="error" data-code={error}>
          {message}
        </p>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          // one try at a time: an Enter while the last is answered keeps what was typed
          if (busy) return;
          const entered = pin;
          setPin('');
          void sessionStore.getState().pinSubmitted(entered);
        }}
      >
        <label className="field">
          {t('signIn.pin')}
          <input
            ref={field}
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={12}
            value={pin}
            onChange={(event) => setPin(event.target.value.replace(/\D/g, ''))}
          />
        </label>
        <button type="submit" className="primary" disabled={pin.length === 0}>
          {t('signIn.submit')}
        </button>
      </form>
    </section>
  );
}
