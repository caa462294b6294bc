import { useState, type ReactNode } from 'react';
import type { Money } from '../api/types';
import { currencyScale, formatMoney, minorToDecimal } from '../format';
import type { Translate } from '../i18n/i18n';
import { outcomeKey } from './test-cards';

interface Props {
  t: Translate;
  locale: string;
  /** what card or cash pays: the total, or what the gift cards leave of it (the engine's quote) */
  total: Money;
  testTokens: readonly string[];
  busy: boolean;
  /** the kiosk takes cards only */
  cash: boolean;
  onCard(token: string): void;
  onCash(tendered: Money): void;
  /** asked before the cash step opens: false keeps it shut (the drawer must be opened first, and asks for it) */
  beforeCash?: () => boolean;
  /** gift cards accepted (not for a gift-card cart): the gift-card step, and whether the cards cover the total */
  giftCard?: { step: ReactNode; covered: boolean; onComplete(): void };
}

const NOTES = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];

/**
 * Card (with the simulator's test cards while it is in use) or cash with the amount tendered; gift cards first
 * when the cart takes them, then card or cash for what they leave, or `Complete sale` when they cover it all.
 */
export function PaymentPanel({ t, locale, total, testTokens, busy, cash, onCard, onCash, beforeCash, giftCard }: Props) {
  const [method, setMethod] = useState<'card' | 'cash' | 'giftCard' | null>(null);
  const covered = giftCard?.covered === true;
  const [token, setToken] = useState(testTokens[0] ?? '');
  const [tendered, setTendered] = useState('');
  const scale = currencyScale(total.currency);
  // Quick cash: the exact total and the next few round note values above it. Comparisons, not prices.
  const quick = NOTES.map((note) => note * 10 ** scale).filter((amount) => amount > total.amount).slice(0, 3);
  const tenderedMinor = parseTendered(tendered, scale);

  return (
    <section className="payment" aria-label={t('pay.card')}>
      <div className="methods">
        <button type="button" id="pay-card" className="primary" aria-pressed={method === 'card'} aria-keyshortcuts="F3" disabled={busy || covered} onClick={() => setMethod('card')}>
          {t('pay.card')}
        </button>
        {cash && (
          <button type="button" id="pay-cash" className="primary" aria-pressed={method === 'cash'} aria-keyshortcuts="F2" disabled={busy || covered} onClick={() => (beforeCash?.() ?? true) && setMethod('cash')}>
            {t('pay.cash')}
          </button>
        )}
        {giftCard && (
          <button type="button" id="pay-gift-card" className="primary" aria-pressed={method === 'giftCard'} aria-keyshortcuts="F7" disabled={busy} onClick={() => setMethod('giftCard')}>
            {t('giftCard.pay')}
          </button>
        )}
      </div>
      {giftCard && covered && (
        <button type="button" id="gift-card-complete" className="primary big" disabled={busy} autoFocus onClick={giftCard.onComplete}>
          {t('giftCard.complete')}
        </button>
      )}
      {method === 'giftCard' && !covered && giftCard?.step}
      {method === 'card' && !covered && (
        <form
          className="card-step"
          onSubmit={(event) => {
            event.preventDefault();
            onCard(token);
          }}
        >
          {testTokens.length > 0 && (
            <label className="field">
              {t('card.testCard')}
              <select aria-label={t('card.testCard')} value={token} onChange={(event) => setToken(event.target.value)}>
                {testTokens.map((option) => {
                  const outcome = outcomeKey(option);
                  return (
                    <option key={option} value={option}>
                      {outcome ? `${t(outcome)} (${option})` : option}
                    </option>
                  );
                })}
              </select>
            </label>
          )}
          <button type="submit" id="card-charge" className="primary" disabled={busy || !token} autoFocus>
            {t('card.charge')} {formatMoney(total, locale)}
          </button>
        </form>
      )}
      {method === 'cash' && !covered && (
        <form
          className="cash-step"
          onSubmit={(event) => {
            event.preventDefault();
            onCash({ amount: tenderedMinor ?? total.amount, currency: total.currency });
          }}
        >
          <label className="field">
            {t('cash.tendered')} ({total.currency})
            <input id="cash-tendered" type="text" inputMode="decimal" autoComplete="off" autoFocus placeholder={minorToDecimal(total.amount, scale)} value={tendered} onChange={(event) => setTendered(event.target.value)} />
          </label>
          <p className="hint">{t('cash.emptyIsExact')}</p>
          <div className="quick" role="group" aria-label={t('cash.quick')}>
            <button type="button" onClick={() => setTendered(minorToDecimal(total.amount, scale))}>
              {t('cash.exact')}
            </button>
            {quick.map((amount) => (
              <button type="button" key={amount} onClick={() => setTendered(minorToDecimal(amount, scale))}>
                {formatMoney({ amount, currency: total.currency }, locale)}
              </button>
            ))}
          </div>
          {tenderedMinor !== undefined && tenderedMinor < total.amount && <p className="hint">{t('cash.short')}</p>}
          {/* Display only: the engine's total subtracted from the amount typed, as the engine will answer it
              in the order's payment.change (see README, "The UI"). The UI prices nothing. */}
          <p className="change-live" role="status">
            {tenderedMinor !== undefined && tenderedMinor >= total.amount && (
              <>
                {t('cash.change')}: <strong>{formatMoney({ amount: tenderedMinor - total.amount, currency: total.currency }, locale)}</strong>
              </>
            )}
          </p>
          <button type="submit" className="primary" disabled={busy || (tenderedMinor !== undefined && tenderedMinor < total.amount)}>
            {t('cash.take')}
          </button>
        </form>
      )}
    </section>
  );
}

/** Staff type "50" or "50.5" or "50,50": exact minor units, or undefined while the entry is not a number. */
export function parseTendered(text: string, scale: number): number | undefined {
  const match = /^(\d{1,9})(?:[.,](\d*))?$/.exec(text.trim());
  if (!match) return undefined;
  const fraction = (match[2] ?? '').padEnd(scale, '0');
  if (fraction.length > scale) return undefined;
  return Number(`${match[1]}${fraction}`);
}
