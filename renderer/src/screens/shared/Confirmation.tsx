import { useEffect, useState } from 'react';
import type { Order } from '../../api/types';
import { QrCode, ticketQrText } from '../../components/QrCode';
import { ReceiptLines } from '../../components/ReceiptLines';
import { TotalLine } from '../../components/TotalLine';
import { formatMoney, maskGiftCardCode } from '../../format';
import { useLocale, useT } from '../../i18n/i18n';
import { useCatalog } from '../../stores/catalog';
import { PrintPanel } from './PrintPanel';
import { useSession } from '../../stores/session';
import { KioskPrintNotice, useKioskPrintState } from '../kiosk/KioskPrintNotice';
import { orderShowDate } from './gift-cards';

interface Props {
  order: Order;
  onNewSale(): void;
  /** kiosk: back to the start on its own after this many seconds (and it says so) */
  returnInSeconds?: number;
  /** kiosk: as long, when the tickets were not printed (the customer notes the order number) */
  returnInSecondsIfNotPrinted?: number;
}

/**
 * Success: the order id, the show (event, date and time on the venue's clock, venue), one QR code per
 * ticket with its area and seat, gift-card codes, and a receipt laid out for 80 mm paper when printed.
 */
export function Confirmation({ order, onNewSale, returnInSeconds, returnInSecondsIfNotPrinted = returnInSeconds }: Props) {
  const t = useT();
  const locale = useLocale();
  const payment = order.payment;
  const show = order.event;
  // The catalog's names follow the chosen language; the order keeps the name it was sold under as a fallback.
  const catalogEvent = useCatalog((state) => state.events.find((event) => event.id === show?.id));
  const venue = useCatalog((state) => state.locations.find((location) => location.id === show?.location.id));
  const timeZone = show?.location.timeZone ?? venue?.timeZone;
  const showName = catalogEvent?.name ?? show?.name;
  // A gift card has no show date (its catalog entry carries a placeholder one): none is shown.
  const when = orderShowDate(order, locale, timeZone);
  const where = venue?.name ?? show?.location.name;

  const kiosk = useSession((state) => state.mode === 'kiosk');
  const printState = useKioskPrintState(order.id);
  const notPrinted = kiosk && (printState === 'not-printed' || printState === 'printer-trouble');
  const backInSeconds = notPrinted ? returnInSecondsIfNotPrinted : returnInSeconds;
  return (
    <article className="confirmation receipt-paper" aria-labelledby="confirmed-heading">
      <h2 id="confirmed-heading">
        {t('confirm.heading')} <span className="order-id">{order.id}</span>
      </h2>
      {kiosk && <KioskPrintNotice orderId={order.id} />}
      {backInSeconds !== undefined && <BackToStart key={backInSeconds} seconds={backInSeconds} onDone={onNewSale} />}
      {show && (
        <p className="show">
          <strong className="show-name">{showName}</strong>
          {when && (
            <>
              <br />
              <span className="show-when">{when}</span>
            </>
          )}
          <br />
          <span className="show-where">{where}</span>
        </p>
      )}
      <p className="paid">
        {payment.method === 'none'
          ? t('confirm.paidNothing')
          : payment.method === 'cash' && payment.tendered && payment.change
            ? t('confirm.paidCash', { tendered: formatMoney(payment.tendered, locale), change: formatMoney(payment.change, locale) })
            : payment.method === 'card'
              ? t('confirm.paidCard')
              : payment.method === 'giftCard'
                ? t('confirm.paidGiftCard')
                : t('confirm.paidOther')}
      </p>
      {payment.giftCards && payment.giftCards.length > 0 && (
        <ul className="gift-card-paid" aria-label={t('giftCard.parts')}>
          {/* each card's part and what stayed on it right after this order (the engine's ledger) */}
          {payment.giftCards.map((part) => (
            <li key={part.code}>
              {t('giftCard.card', { code: maskGiftCardCode(part.code) })}: {formatMoney(part.amount, locale)}
              {part.balanceAfter && <> · {t('confirm.giftCardLeft', { balance: formatMoney(part.balanceAfter, locale) })}</>}
            </li>
          ))}
        </ul>
      )}
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
              <li key={ticket.id} className="ticket">
                <QrCode text={ticketQrText(ticket)} label={t('confirm.ticket', { code: ticket.code })} />
                <span className="code">{ticket.code}</span>
                {show && (
                  <span className="ticket-show">
                    {when ? `${showName} · ${when}` : showName}
                  </span>
                )}
                {where && <span className="ticket-venue">{where}</span>}
                {ticket.area && <span className="ticket-area">{ticket.area}</span>}
                {ticket.seat && <span className="ticket-seat">{ticket.seat}</span>}
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
      <PrintPanel order={order} />
      <div className="actions no-print">
        {/* An unattended kiosk never opens the browser's print dialog: it prints through the engine (PrintPanel). */}
        {!kiosk && (
          <button type="button" onClick={() => window.print()}>
            {t('confirm.print')}
          </button>
        )}
        <button type="button" className="primary big" onClick={onNewSale}>
          {t(returnInSeconds === undefined ? 'confirm.newSale' : 'confirm.done')}
        </button>
      </div>
    </article>
  );
}

/** The kiosk's confirmation counts down to the start screen, so the next customer never sees these codes. */
function BackToStart({ seconds, onDone }: { seconds: number; onDone(): void }) {
  const t = useT();
  const [deadline] = useState(() => Date.now() + seconds * 1000);
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const timer = setInterval(() => {
      const remaining = Math.ceil((deadline - Date.now()) / 1000);
      if (remaining <= 0) {
        clearInterval(timer);
        onDone();
      } else setLeft(remaining);
    }, 250);
    return () => clearInterval(timer);
  }, [deadline, onDone]);
  return (
    <p className="back-to-start no-print" role="timer" aria-label={t('confirm.backToStartLabel')}>
      {t('confirm.backToStart', { seconds: left })}
    </p>
  );
}
