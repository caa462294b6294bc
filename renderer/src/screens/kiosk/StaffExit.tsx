import { useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/i18n';

/**
 * The desktop kiosk's only way out: Ctrl+Shift+Q (caught by the app) asks for the staff PIN, which the
 * app checks against its stored hash. Shown only inside the desktop app.
 */
export function StaffExit() {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [pin, setPin] = useState('');
  const [wrong, setWrong] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => window.kassa?.onStaffExitRequested?.(() => setOpen(true)), []);
  useEffect(() => {
    if (open && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [open]);
  if (!open) return null;
  const close = () => {
    setOpen(false);
    setPin('');
    setWrong(false);
    dialog.current?.close();
  };
  return (
    <dialog ref={dialog} className="staff-exit" aria-labelledby="staff-exit-title" onCancel={close}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void window.kassa?.staffExit?.(pin).then((ok) => setWrong(!ok));
        }}
      >
        <h2 id="staff-exit-title">{t('staff.title')}</h2>
        <label className="field">
          {t('staff.pin')}
          <input type="password" inputMode="numeric" autoComplete="off" value={pin} onChange={(event) => setPin(event.target.value)} />
        </label>
        {wrong && <p role="alert">{t('staff.wrong')}</p>}
        <button type="submit" className="primary">
          {t('staff.exit')}
        </button>
        <button type="button" className="secondary" onClick={close}>
          {t('staff.cancel')}
        </button>
      </form>
    </dialog>
  );
}
