import type { Translate } from '../i18n/i18n';

const KEYS = ['1234567890', 'QWERTYUIOP', 'ASDFGHJKL', 'ZXCVBNM-_'];

/**
 * An on-screen keypad for a kiosk without a keyboard: voucher codes are letters, digits, - and _. The text
 * field it fills has `inputmode="none"`, so no system keyboard pops up over the screen, yet it still takes
 * a hardware keyboard's or a barcode scanner's typing.
 */
export function Keypad({ t, value, onChange, maxLength = 64 }: { t: Translate; value: string; onChange(value: string): void; maxLength?: number }) {
  return (
    // A tap does not take the focus from the field, so a scanner or keyboard can go on typing after it.
    <div className="keypad" role="group" aria-label={t('keypad.label')} onMouseDown={(event) => event.preventDefault()}>
      {KEYS.map((row) => (
        <div key={row} className="keypad-row">
          {[...row].map((key) => (
            <button key={key} type="button" className="key" disabled={value.length >= maxLength} onClick={() => onChange(value + key)}>
              {key}
            </button>
          ))}
        </div>
      ))}
      <div className="keypad-row">
        <button type="button" className="key wide" disabled={value.length === 0} onClick={() => onChange(value.slice(0, -1))}>
          {t('keypad.delete')}
        </button>
        <button type="button" className="key wide" disabled={value.length === 0} onClick={() => onChange('')}>
          {t('keypad.clear')}
        </button>
      </div>
    </div>
  );
}
