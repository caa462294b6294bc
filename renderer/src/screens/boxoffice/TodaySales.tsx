import type { Order } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { formatMoney, formatTime } from '../../format';
import { orderShowDate } from '../shared/gift-cards';
import { useLocale, useT } from '../../i18n/i18n';
import { useCatalog } from '../../stores/catalog';
import { ordersStore, useOrders } from '../../stores/orders';

/**
 * Today's sales — the venue's day — with the engine's totals per currency (never added across currencies),
 * newest first, a page at a time: *Show more sales* reads the next page until the day is complete.
 */
export function TodaySales({ onShow }: { onShow(order: Order): void }) {
  const t = useT();
  const locale = useLocale();
  const today = useOrders((state) => state.today);
  const more = useOrders((state) => state.todayMore);
  const busy = useOrders((state) => state.busy);
  const summary = useOrders((state) => state.summary);
  const locations = useCatalog((state) => state.locations);
  const venueZone = locations.find((location) => location.timeZone !== undefined)?.timeZone;
  const zoneOf = (order: Order) => order.event?.location.timeZone ?? locations.find((location) => location.id === order.event?.location.id)?.timeZone;
  const actions = ordersStore.getState();

  return (
    <section className="today" aria-labelledby="today-heading">
      <h3 id="today-heading">{t('today.heading')}</h3>
      {summary && summary.currencies.length > 0 && (
        <section className="today-totals" aria-labelledby="today-totals-heading">
          <h4 id="today-totals-heading">{t('today.totals')}</h4>
          <DataTable
            rows={summary.currencies}
            rowKey={(row) => row.currency}
            columns={[
              { heading: t('today.currency'), cell: (row) => row.currency },
              { heading: t('today.orders'), cell: (row) => row.orders, className: 'number' },
              { heading: t('today.sold'), cell: (row) => formatMoney(row.total, locale), className: 'number' },
              {
                heading: t('today.cancelled'),
                cell: (row) => t('today.cancelledCell', { count: row.cancelled.orders, amount: formatMoney(row.cancelled.total, locale) }),
                className: 'number',
              },
              { heading: t('today.net'), cell: (row) => <strong>{formatMoney(row.net, locale)}</strong>, className: 'number' },
            ]}
          />
        </section>
      )}
      {today.length === 0 ? (
        <p className="hint">{t('today.none')}</p>
      ) : (
        <>
          <DataTable
            className="today-list"
            rows={today}
            rowKey={(order) => order.id}
            rowAttributes={(order) => ({ className: order.status === 'cancelled' ? 'is-cancelled' : undefined })}
            columns={[
              { heading: t('today.time'), cell: (order) => formatTime(order.createdAt, locale, venueZone) },
              { heading: t('today.show'), cell: (order) => (order.event ? [order.event.name, orderShowDate(order, locale, zoneOf(order))].filter(Boolean).join(', ') : '—') },
              {
                heading: t('today.payment'),
                cell: (order) => (
                  <>
                    {t(order.payment.method === 'cash' ? 'today.cash' : order.payment.method === 'card' ? 'today.card' : order.payment.method === 'giftCard' ? 'today.giftCard' : 'today.other')}
                    {order.status === 'cancelled' && <> · {t('lookup.status.cancelled')}</>}
                  </>
                ),
              },
              { heading: t('total.label'), cell: (order) => formatMoney(order.total, locale) },
              {
                heading: t('today.order'),
                cell: (order) => (
                  <button type="button" className="link" onClick={() => onShow(order)}>
                    {order.id}
                  </button>
                ),
              },
            ]}
          />
          {more !== null ? (
            <button type="button" className="secondary" disabled={busy} onClick={() => void actions.moreRequested()}>
              {t('today.more')}
            </button>
          ) : (
            <p className="hint">{t('today.allShown')}</p>
          )}
        </>
      )}
    </section>
  );
}
