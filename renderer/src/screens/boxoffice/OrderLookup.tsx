import { useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ReceiptLines } from '../../components/ReceiptLines';
import { formatMoney } from '../../format';
import { useLocale, useT } from '../../i18n/i18n';
import { ordersStore, useOrders } from '../../stores/orders';

/** Staff find an order by its id or any ticket code, see it, and cancel it with a refund. */
export function OrderLookup({ onBack }: { onBack(): void }) {
  const t = useT();
  const locale = useLocale();
  const [query, setQuery] = useState('');
  const found = useOrders((state) => state.found);
  const searched = useOrders((state) => state.searched);
  const busy = useOrders((state) => state.busy);
  const error = useOrders((state) => state.error);
  const actions = ordersStore.getState();
  return (
    <section className="lookup" aria-labelledby="lookup-heading">
      <h2 id="lookup-heading">{t('lookup.heading')}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void actions.lookedUp(query);
        }}
      >
        <label className="field">
          {t('lookup.label')}
          <input id="lookup-query" type="search" autoComplete="off" value={query} onChange={(event) => setQuery(event.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={busy || !query.trim()}>
          {t('lookup.find')}
        </button>
        <button type="button" className="secondary" onClick={onBack}>
          {t('lookup.back')}
        </button>
      </form>
      {error && <ErrorAlert t={t} error={error} />}
      {searched && !found && <p role="status">{t('lookup.none')}</p>}
      {found && (
        <article className="found" aria-labelledby="found-heading">
          <h3 id="found-heading">{t('confirm.order', { id: found.id })}</h3>
          <p className={`status is-${found.status}`} role="status">
            {found.status === 'cancelled' ? t('lookup.status.cancelled') : t('lookup.status.confirmed')}
          </p>
          <ReceiptLines lines={found.receiptLines} locale={locale} heading={t('receipt.heading')} />
          <p className="total">
            {t('total.label')} {formatMoney(found.total, locale)}
          </p>
          <ul className="codes">
            {found.tickets.map((ticket) => (
              <li key={ticket.id}>{t('confirm.ticket', { code: ticket.code })}</li>
            ))}
          </ul>
          {found.status === 'confirmed' && (
            <button type="button" className="danger" disabled={busy} onClick={() => void actions.cancelled(found.id)}>
              {t('lookup.cancel')}
            </button>
          )}
        </article>
      )}
    </section>
  );
}
