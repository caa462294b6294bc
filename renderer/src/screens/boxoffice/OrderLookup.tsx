import { useEffect, useState } from 'react';
import type { Order } from '../../api/types';
import { useConfirm } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ReceiptLines } from '../../components/ReceiptLines';
import { formatMoney, maskGiftCardCode } from '../../format';
import { orderShowDate } from '../shared/gift-cards';
import { useLocale, useT, type Translate } from '../../i18n/i18n';
import { useCatalog } from '../../stores/catalog';
import { ordersStore, useOrders } from '../../stores/orders';
import { PrintPanel } from '../shared/PrintPanel';
import { TodaySales } from './TodaySales';

/**
 * Staff find an order by its id or any ticket code — or pick it from today's sales — see the show, the
 * payment and the tickets, reprint it or download its tickets PDF, and cancel it with a refund after saying
 * what goes back and how.
 */
export function OrderLookup({ onBack }: { onBack(): void }) {
  const t = useT();
  const locale = useLocale();
  const [query, setQuery] = useState('');
  const found = useOrders((state) => state.found);
  const searched = useOrders((state) => state.searched);
  const busy = useOrders((state) => state.busy);
  const error = useOrders((state) => state.error);
  const locations = useCatalog((state) => state.locations);
  const zoneOf = (order: Order) => order.event?.location.timeZone ?? locations.find((location) => location.id === order.event?.location.id)?.timeZone;
  const confirm = useConfirm(t);
  const actions = ordersStore.getState();
  useEffect(() => {
    // Each visit starts with an empty search: no order of an earlier visit beside an empty field.
    ordersStore.getState().cleared();
    void ordersStore.getState().todayRequested();
  }, []);

  const cancel = async (order: Order) => {
    const yes = await confirm.ask({
      title: t('refund.title', { id: order.id }),
      body: (
        <ul className="refund-parts">
          {refundParts(t, order, locale).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ),
      confirm: t('refund.confirm', { amount: formatMoney(order.total, locale) }),
    });
    if (yes) await actions.cancelled(order.id);
  };

  return (
    <section className="lookup" aria-labelledby="lookup-heading">
      {confirm.dialog}
      <h2 id="lookup-heading">{t('lookup.heading')}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void actions.lookedUp(query);
        }}
      >
        <label className="field">
          {t('lookup.label')}
          <input id="lookup-query" type="search" autoComplete="off" autoFocus value={query} onChange={(event) => setQuery(event.target.value)} />
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
            {found.status === 'cancelled' && found.payment.method === 'cash' && <> — {t('refund.handBack', { amount: formatMoney(found.payment.amount, locale) })}</>}
          </p>
          {found.event && (
            <p className="show">
              <strong>{found.event.name}</strong> · {[orderShowDate(found, locale, zoneOf(found)), found.event.location.name].filter(Boolean).join(' · ')}
            </p>
          )}
          <p className="paid">{paymentText(t, found, locale)}</p>
          <ReceiptLines lines={found.receiptLines} locale={locale} heading={t('receipt.heading')} />
          <p className="total">
            {t('total.label')} {formatMoney(found.total, locale)}
          </p>
          <ul className="codes">
            {found.tickets.map((ticket) => (
              <li key={ticket.id}>
                {t('confirm.ticket', { code: ticket.code })}
                {ticket.area && <> · {ticket.area}</>}
                {ticket.seat && <> · {ticket.seat}</>}
              </li>
            ))}
          </ul>
          {found.status === 'confirmed' && (
            <>
              <PrintPanel order={found} reprint />
              <button type="button" className="danger" disabled={busy} onClick={() => void cancel(found)}>
                {t('lookup.cancel')}
              </button>
            </>
          )}
        </article>
      )}
      <TodaySales
        onShow={(order) => {
          // the field names the order on screen, not the one searched before
          setQuery(order.id);
          actions.shown(order);
        }}
      />
      <p className="shortcuts">{t('boxOffice.keysLookup')}</p>
    </section>
  );
}

/** How the order was paid, part by part: each gift card, then what card or cash paid. */
function paymentText(t: Translate, order: Order, locale: string): string {
  const amount = formatMoney(order.payment.amount, locale);
  const cards = (order.payment.giftCards ?? []).map((part) => t('lookup.paidGiftCard', { amount: formatMoney(part.amount, locale), code: maskGiftCardCode(part.code) }));
  // method giftCard: the cards paid it all, listed above
  const rest = order.payment.method === 'cash' ? t('lookup.paidCash', { amount }) : order.payment.method === 'card' ? t('lookup.paidCard', { amount }) : order.payment.method === 'giftCard' ? null : t('confirm.paidOther');
  return [...cards, ...(rest === null ? [] : [rest])].join(' · ');
}

/**
 * What the refund does, part by part, in the words staff act on (contract §13): each gift-card part back onto
 * its card, the card part back to the card it was paid with, the cash part handed back.
 */
function refundParts(t: Translate, order: Order, locale: string): string[] {
  const amount = formatMoney(order.payment.amount, locale);
  const cards = (order.payment.giftCards ?? []).map((part) => t('refund.giftCard', { amount: formatMoney(part.amount, locale), code: maskGiftCardCode(part.code) }));
  const method = order.payment.method;
  const rest = method === 'cash' ? t('refund.cash', { amount }) : method === 'card' ? t('refund.card', { amount }) : method === 'giftCard' ? t('refund.tickets') : t('refund.other');
  return [...cards, rest];
}
