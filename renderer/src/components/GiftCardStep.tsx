import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ApiError } from '../api/errors';
import type { GiftCardQuote } from '../api/types';
import { formatMoney, maskGiftCardCode } from '../format';
import type { Translate } from '../i18n/i18n';
import { ErrorAlert } from './ErrorAlert';
import { Keypad } from './Keypad';
import { TotalLine } from './TotalLine';

interface StepProps {
  t: Translate;
  busy: boolean;
  /** said beside the field (the kiosk); the box office says it above its pay bar */
  error?: ApiError | null;
  /** kiosk: the on-screen keypad beside typing and scanning, and words for customers */
  keypad?: boolean;
  onCode(code: string): Promise<boolean>;
  onDismissError?(): void;
}

/**
 * The gift-card step (contract §9): `Gift card code` takes typing, a keyboard-wedge scanner (characters, then
 * Enter) and, at the kiosk, the on-screen keypad; `Use gift card` asks the engine what the card would take. The
 * field has the focus as soon as it shows and keeps it after a card is in, so the next card can follow.
 */
export function GiftCardForm({ t, busy, error, keypad = false, onCode, onDismissError }: StepProps) {
  const [code, setCode] = useState('');
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const entered = code;
    if (!entered.trim()) return;
    // The field is free at once, so a scanner's next card can follow while the engine answers; a refused code
    // comes back for correcting, unless something new was typed meanwhile.
    setCode('');
    if (!(await onCode(entered))) setCode((now) => (now === '' ? entered : now));
    field.current?.focus();
  };
  return (
    <form className="gift-card-step" onSubmit={(event) => void submit(event)}>
      <label className="field">
        {t('giftCard.code')}
        <input ref={field} id="gift-card-code" type="text" autoComplete="off" spellCheck={false} {...(keypad && { inputMode: 'none' as const })} value={code} onChange={(event) => setCode(event.target.value)} />
      </label>
      <button type="submit" id="gift-card-use" className={keypad ? 'primary big' : undefined} disabled={busy || !code.trim()}>
        {t('giftCard.use')}
      </button>
      {error && <ErrorAlert t={t} error={error} customer={keypad} {...(onDismissError && { onDismiss: onDismissError })} />}
      {keypad && <Keypad t={t} value={code} onChange={setCode} />}
    </form>
  );
}

interface PartsProps {
  t: Translate;
  locale: string;
  quote: GiftCardQuote;
  busy: boolean;
  onRemove(code: string): void;
}

/**
 * The cards entered, each with the engine's figures: what it pays, its balance and what stays on it; then
 * `Left to pay`, the part card or cash still pays (nothing computed here: the engine's quote).
 */
export function GiftCardParts({ t, locale, quote, busy, onRemove }: PartsProps) {
  return (
    <section className="gift-card-parts" aria-labelledby="gift-card-parts-heading">
      <h3 id="gift-card-parts-heading">{t('giftCard.parts')}</h3>
      <ul>
        {quote.parts.map((part) => {
          const masked = maskGiftCardCode(part.code);
          return (
            <li key={part.code}>
              <span className="gift-card-code">{t('giftCard.card', { code: masked })}</span> ·{' '}
              <span className="gift-card-pays">{t('giftCard.pays', { amount: formatMoney(part.amount, locale) })}</span> ·{' '}
              <span className="gift-card-balance">
                {t('giftCard.balance', { balance: formatMoney(part.balance, locale), after: formatMoney(part.balanceAfter, locale) })}
              </span>{' '}
              <button type="button" className="link" disabled={busy} aria-label={t('giftCard.remove', { code: masked })} onClick={() => onRemove(part.code)}>
                ×
              </button>
            </li>
          );
        })}
      </ul>
      <TotalLine id="left-to-pay-label" label={t('giftCard.leftToPay')} total={quote.remaining} locale={locale} />
    </section>
  );
}
