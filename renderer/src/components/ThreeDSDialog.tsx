import { useEffect, useRef } from 'react';
import type { Translate } from '../i18n/i18n';

interface Props {
  t: Translate;
  url: string;
  reference: string;
  onResult(result: { outcome: string; authenticationResult?: string }): void;
  onCancel(): void;
}

/**
 * The 3-D Secure step: the provider's challenge page in a modal dialog. The page posts its result to this
 * window; only a message from the challenge's own origin about this reference is taken.
 */
export function ThreeDSDialog({ t, url, reference, onResult, onCancel }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    // Focus stays in this window (not inside the challenge frame), so Escape still cancels the dialog.
    heading.current?.focus();
    const origin = new URL(url, window.location.href).origin;
    const listen = (event: MessageEvent) => {
      const data: unknown = event.data;
      if (event.origin !== origin || typeof data !== 'object' || data === null) return;
      const message = data as Record<string, unknown>;
      if (message.type !== 'kassa:3ds' || message.reference !== reference || typeof message.outcome !== 'string') return;
      onResult({ outcome: message.outcome, ...(typeof message.authenticationResult === 'string' && { authenticationResult: message.authenticationResult }) });
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [url, reference, onResult]);
  return (
    <dialog ref={dialog} className="three-ds" aria-labelledby="three-ds-title" onCancel={onCancel}>
      <h2 id="three-ds-title" ref={heading} tabIndex={-1}>
        {t('threeDS.title')}
      </h2>
      <iframe title={t('threeDS.title')} src={url} />
      <button type="button" className="secondary" onClick={onCancel}>
        {t('threeDS.cancel')}
      </button>
    </dialog>
  );
}
