import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Cart } from '../api/types';
import { formatMoney } from '../format';
import type { Translate } from '../i18n/i18n';
import { Keypad } from './Keypad';

/** Currency, voucher and extras controls of a held cart. Every change goes to the engine, which reprices. */

export function CurrencySelect({ t, currencies, value, onChange, disabled }: { t: Translate; currencies: readonly string[]; value: string; onChange(currency: string): void; disabled?: boolean }) {
  return (
    <label className="field">
      {t('currency.label')}
      <select aria-label={t('currency.label')} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)}>
        {currencies.map((currency) => (
          <option key={currency} value={currency}>
            {currency}
          </option>
        ))}
      </select>
    </label>
  );
}

interface VoucherProps {
  t: Translate;
  vouchers: Cart['vouchers'];
  onApply(code: string): Promise<boolean>;
  onRemove(code: string): void;
  disabled?: boolean;
  /**
   * kiosk: the code is tapped in on an on-screen keypad. The field takes typing too — a hardware keyboard or a
   * keyboard-wedge barcode scanner (contract §9) — with `inputmode="none"`, so no system keyboard pops up; it
   * has the focus as soon as it shows, so a scan lands in it without a tap.
   */
  keypad?: boolean;
}

export function VoucherForm({ t, vouchers, onApply, onRemove, disabled, keypad = false }: VoucherProps) {
  const [code, setCode] = useState('');
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (keypad) field.current?.focus();
  }, [keypad]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() && (await onApply(code))) setCode('');
  };
  return (
    <form className="voucher" onSubmit={submit}>
      <label className="field">
        {t('voucher.label')}
        <input ref={field} id="voucher-code" type="text" autoComplete="off" {...(keypad && { inputMode: 'none' as const })} value={code} onChange={(event) => setCode(event.target.value)} />
      </label>
      <button type="submit" disabled={disabled || !code.trim()}>
        {t('voucher.apply')}
      </button>
      {/* below the field and Apply, so both stay in sight above the kiosk's bottom bar while keys are tapped */}
      {keypad && <Keypad t={t} value={code} onChange={setCode} />}
      <VoucherChips t={t} vouchers={vouchers} onRemove={onRemove} />
    </form>
  );
}

/** The vouchers in the cart, each with its remove button. */
export function VoucherChips({ t, vouchers, onRemove }: Pick<VoucherProps, 't' | 'vouchers' | 'onRemove'>) {
  if (vouchers.length === 0) return null;
  return (
    <ul className="chips">
      {vouchers.map((voucher) => (
        <li key={voucher.code}>
          {voucher.code}{' '}
          <button type="button" className="link" aria-label={t('voucher.remove', { code: voucher.code })} onClick={() => onRemove(voucher.code)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

interface ExtrasProps {
  t: Translate;
  locale: string;
  cart: Cart;
  onAdd(extraId: string): void;
  onChange(itemId: string, quantity: number): void;
  onRemove(itemId: string): void;
  disabled?: boolean;
}

export function ExtrasList({ t, locale, cart, onAdd, onChange, onRemove, disabled }: ExtrasProps) {
  const extras = cart.options.extras;
  if (!extras) return null;
  return (
    <section className="extras" aria-labelledby="extras-heading">
      <h3 id="extras-heading">{t('extras.heading')}</h3>
      <ul>
        {extras.map((extra) => {
          const line = cart.items.find((item) => item.extraId === extra.id);
          return (
            <li key={extra.id}>
              <span className="name">{extra.name}</span> <span className="price">{formatMoney(extra.price, locale)}</span>
              {line ? (
                <span className="stepper">
                  <input
                    type="number"
                    min={1}
                    max={extra.maxQuantity ?? 100}
                    aria-label={t('extras.quantity', { name: extra.name })}
                    value={line.quantity}
                    disabled={disabled}
                    onChange={(event) => {
                      const quantity = Number(event.target.value);
                      if (Number.isInteger(quantity) && quantity >= 1) onChange(line.id, quantity);
                    }}
                  />
                  <button type="button" className="secondary" disabled={disabled} onClick={() => onRemove(line.id)}>
                    {t('extras.remove', { name: extra.name })}
                  </button>
                </span>
              ) : (
                <button type="button" disabled={disabled} onClick={() => onAdd(extra.id)}>
                  {t('extras.add', { name: extra.name })}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
