import { useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/i18n';

/**
 * Kiosk: after `idleSeconds` without a touch, asks "still there?"; without an answer it calls `onTimeout`
 * (which releases the hold and starts over) after a further third of that time, at least 10 s. While a
 * payment runs — taps inside the 3-D Secure page never reach this window — the clock stands still.
 */
export function IdleGuard({ idleSeconds, paused, onTimeout }: { idleSeconds: number; paused: boolean; onTimeout(): void }) {
  const t = useT();
  const graceSeconds = Math.max(10, Math.round(idleSeconds / 3));
  const [asking, setAsking] = useState(false);
  const [left, setLeft] = useState(graceSeconds);
  const lastTouch = useRef(0);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    lastTouch.current = Date.now();
  }, []);

  useEffect(() => {
    const touched = () => {
      if (!asking) lastTouch.current = Date.now();
    };
    window.addEventListener('pointerdown', touched);
    window.addEventListener('keydown', touched);
    const timer = setInterval(() => {
      if (paused) {
        lastTouch.current = Date.now();
        return;
      }
      const idle = (Date.now() - lastTouch.current) / 1000;
      if (idle >= idleSeconds + graceSeconds) onTimeout();
      else if (idle >= idleSeconds) {
        setAsking(true);
        setLeft(Math.ceil(idleSeconds + graceSeconds - idle));
      }
    }, 250);
    return () => {
      clearInterval(timer);
      window.removeEventListener('pointerdown', touched);
      window.removeEventListener('keydown', touched);
    };
  }, [asking, paused, idleSeconds, graceSeconds, onTimeout]);

  useEffect(() => {
    if (asking && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [asking]);

  if (!asking) return null;
  return (
    <dialog ref={dialog} className="idle" aria-labelledby="idle-heading" onCancel={(event) => event.preventDefault()}>
      <h2 id="idle-heading">{t('kiosk.stillThere')}</h2>
      <p role="timer">{t('kiosk.restarting', { seconds: left })}</p>
      <button
        type="button"
        className="primary big"
        onClick={() => {
          lastTouch.current = Date.now();
          setAsking(false);
          dialog.current?.close();
        }}
      >
        {t('kiosk.stay')}
      </button>
    </dialog>
  );
}
