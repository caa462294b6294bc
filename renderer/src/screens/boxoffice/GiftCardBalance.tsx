import { useEffect, useState } from 'react';
import { DataTable } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatMoney, maskGiftCardCode } from '../../format';
import { useLocale, useT } from '../../i18n/i18n';
import { giftCardBalanceStore, useGiftCardBalance } from '../../stores/gift-card-balance';

/**
 * Staff check a gift card: type or scan its code (`Gift card code`, characters then Enter), see what can be spent
 * now, whether it is still valid, and every settled transaction — what it was sold for, each redemption, each
 * refund back onto it, a void — all as the engine answers them.
 */
export function GiftCardBalance({ onBack }: { onBack(): void }) {
  const t = useT();
  const locale = useLocale();
  const [code, setCode] = useState('');
  const card = useGiftCardBalance((state) => state.card);
  const busy = useGiftCardBalance((state) => state.busy);
  const error = useGiftCardBalance((state) => state.error);
  const actions = giftCardBalanceStore.getState();
  // each visit starts empty: no card of an earlier customer beside an empty field
  useEffect(() => giftCardBalanceStore.getState().cleared(), []);
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' });

  return (
    <section className="lookup gift-card-balance" aria-labelledby="gift-card-balance-heading">
      <h2 id="gift-card-balance-heading">{t('giftCardBalance.heading')}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void actions.checked(code);
        }}
      >
        <label className="field">
          {t('giftCard.code')}
          <input id="gift-card-balance-code" type="text" autoComplete="off" spellCheck={false} autoFocus value={code} onChange={(event) => setCode(event.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={busy || !code.trim()}>
          {t('giftCardBalance.check')}
        </button>
        <button type="button" className="secondary" onClick={onBack}>
          {t('lookup.back')}
        </button>
      </form>
      {error && <ErrorAlert t={t} error={error} />}
      {card && (
        <article className="found" aria-labelledby="gift-card-found-heading">
          <h3 id="gift-card-found-heading">{t('giftCard.card', { code: maskGiftCardCode(card.code) })}</h3>
          <p className={`status is-${card.status}`} role="status">
            {t('giftCardBalance.balance', { balance: formatMoney(card.balance, locale) })} ·{' '}
            {t(card.status === 'void' ? 'giftCardBalance.void' : 'giftCardBalance.active')}
          </p>
          <p>{t('giftCardBalance.initial', { initial: formatMoney(card.initial, locale) })}</p>
          {card.transactions.length === 0 ? (
            <p>{t('giftCardBalance.unused')}</p>
          ) : (
            <DataTable
              className="gift-card-transactions"
              rows={card.transactions}
              rowKey={(row) => `${row.at}-${row.orderId}-${row.amount.amount}`}
              columns={[
                { heading: t('today.time'), cell: (row) => time.format(new Date(row.at)) },
                { heading: t('today.order'), cell: (row) => row.orderId },
                { heading: t('giftCardBalance.amount'), cell: (row) => formatMoney(row.amount, locale), className: 'amount' },
              ]}
            />
          )}
        </article>
      )}
    </section>
  );
}
