import { QrCode } from '../../components/QrCode';
import { ReceiptLines } from '../../components/ReceiptLines';
import { TotalLine } from '../../components/TotalLine';
import { formatMoney } from '../../format';
import { useLocale, useT } from '../../i18n/i18n';
import type { Order } from '../../api/types';

/** Success: the order id, one QR code per ticket, gift-card codes and a receipt that prints cleanly. */
export function Confirmation({ order, onNewSale }: { order: Order; onNewSale(): void }) {
  const t = useT();
  const locale = useLocale();
  const payment = order.payment;
  return (
    <article className="confirmation" aria-labelledby="confirmed-heading">
      <h2 id="confirmed-heading">
        {t('confirm.heading')} <span className="order-id">{order.id}</span>
      </h2>
      <p className="paid">
        {payment.method === 'none'
          ? t('confirm.paidNothing')
          : payment.method === 'cash' && payment.tendered && payment.change
            ? t('confirm.paidCash', { tendered: formatMoney(payment.tendered, locale), change: formatMoney(payment.change, locale) })
            : t('confirm.paidCard')}
      </p>
      {payment.change && payment.change.amount > 0 && (
        <p className="change" role="status">
          {t('cash.change')}: <strong>{formatMoney(payment.change, locale)}</strong>
        </p>
      )}
      {order.tickets.length > 0 && (
        <section aria-labelledby="tickets-done">
          <h3 id="tickets-done">{t('confirm.tickets')}</h3>
          <ul className="ticket-codes">
            {order.tickets.map((ticket) => (
              <li key={ticket.id}>
                <QrCode text={ticket.code} label={t('confirm.ticket', { code: ticket.code })} />
                <span className="code">{ticket.code}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {order.giftCards.map((card) => (
        <p key={card.code} className="gift-card">
          {t('confirm.giftCard', { code: card.code })} — {formatMoney(card.value, locale)}
        </p>
      ))}
      <ReceiptLines lines={order.receiptLines} locale={locale} heading={t('receipt.heading')} />
      <TotalLine id="order-total-label" label={t('total.label')} total={order.total} locale={locale} />
      <div className="actions no-print">
        <button type="button" onClick={() => window.print()}>
          {t('confirm.print')}
        </button>
        <button type="button" className="primary" onClick={onNewSale}>
          {t('confirm.newSale')}
        </button>
      </div>
    </article>
  );
}
