import { useState } from 'react';
import { createPortal } from 'react-dom';
import { CurrencySelect, ExtrasList, VoucherChips, VoucherForm } from '../../components/CartControls';
import { ErrorAlert } from '../../components/ErrorAlert';
import { GiftCardForm, GiftCardParts } from '../../components/GiftCardStep';
import { ReceiptLines } from '../../components/ReceiptLines';
import { outcomeKey } from '../../components/test-cards';
import { ThreeDSDialog } from '../../components/ThreeDSDialog';
import { useLocale, useT } from '../../i18n/i18n';
import { cartStore, useCart } from '../../stores/cart';
import { checkoutStore, useCheckout } from '../../stores/checkout';
import { giftCardPaymentStore, useGiftCardPayment } from '../../stores/gift-card-payment';
import { formatMoney } from '../../format';
import { useSession } from '../../stores/session';
import { CurrencyProgress } from '../shared/CurrencyProgress';

/**
 * The kiosk's last step: what is in the cart, extras, a voucher on the on-screen keypad (or typed, or
 * scanned), the currency, and one big `Pay by card` button — the card reader then asks the customer to tap
 * or insert. The button, its prompt and a payment error sit in the kiosk's fixed bottom bar (`actionSlot`),
 * so they stay in sight however long the review gets (an open keypad, many extras, a landscape screen).
 * While the simulated provider is in use, its outcomes are offered in `Test card`, named by outcome.
 * `Pay with gift card` takes a gift card on the keypad, typed or scanned; when the cards do not cover the total,
 * the bottom bar asks for a bank card for `Left to pay`, and when they do, it completes the purchase.
 */
export function KioskPay({ actionSlot }: { actionSlot: HTMLElement | null }) {
  const t = useT();
  const locale = useLocale();
  const cart = useCart((state) => state.cart);
  const cartBusy = useCart((state) => state.busy);
  const cartError = useCart((state) => state.error);
  const testTokens = useSession((state) => state.testTokens);
  const phase = useCheckout((state) => state.phase);
  const challenge = useCheckout((state) => state.challenge);
  const error = useCheckout((state) => state.error);
  const [card, setCard] = useState(0);
  const [voucherOpen, setVoucherOpen] = useState(false);
  const [giftCardOpen, setGiftCardOpen] = useState(false);
  const quote = useGiftCardPayment((state) => state.quote);
  const giftBusy = useGiftCardPayment((state) => state.busy);
  const giftError = useGiftCardPayment((state) => state.error);
  if (!cart) return null;
  const gift = giftCardPaymentStore.getState();
  const actions = cartStore.getState();
  const checkout = checkoutStore.getState();
  // A real provider's reader supplies the card itself; only the simulator needs a test card chosen here.
  const token = testTokens[card] ?? testTokens[0];
  const busy = phase !== 'idle' || cartBusy || giftBusy;
  // the engine's quote says whether the cards cover it all (nothing computed here)
  const covered = quote !== null && quote.remaining.amount === 0;
  // No rate for the chosen currency: said beside the currency, in words for the customer.
  const noRate = cartError?.code === 'CURRENCY_TEMPORARILY_UNAVAILABLE';
  // Vouchers apply to tickets only (spec): a gift card's cart offers no voucher entry.
  const giftCard = cart.items.some((item) => item.type === 'giftCard');
  // The keypad closes once its code is in the cart: the customer's next tap is Pay by card.
  const applyVoucher = async (code: string) => {
    const applied = await actions.voucherApplied(code);
    if (applied) setVoucherOpen(false);
    return applied;
  };
  const removeVoucher = (code: string) => void actions.voucherRemoved(code);
  // Likewise the gift-card keypad closes once the card is in: the next tap is Pay by card (or another card).
  const takeGiftCard = async (code: string) => {
    const taken = await gift.codeEntered(code);
    if (taken) setGiftCardOpen(false);
    return taken;
  };

  const payAction = (
    <div className="kiosk-action">
      {error && <ErrorAlert t={t} error={error} customer onDismiss={checkout.errorDismissed} {...(error.code === 'PAYMENT_PROVIDER_UNAVAILABLE' && { onRetry: () => void checkout.retried() })} />}
      {covered ? (
        <button type="button" id="gift-card-complete" className="primary huge pay-button" disabled={busy} onClick={() => void checkout.giftCardPaid()}>
          {t('kiosk.giftCardComplete')}
        </button>
      ) : (
        <>
          {quote && <p className="card-prompt gift-card-rest">{t('kiosk.giftCardRest', { amount: formatMoney(quote.remaining, locale) })}</p>}
          {phase === 'paying' ? (
            <p role="status" className="card-prompt">
              {t('kiosk.tapCardNow')}
            </p>
          ) : (
            <p className="card-prompt">{t('kiosk.tapCardHint')}</p>
          )}
          <button type="button" id="pay-card" className="primary huge pay-button" disabled={busy || !token} onClick={() => token && void checkout.cardPaid(token)}>
            {t('pay.card')}
          </button>
        </>
      )}
    </div>
  );

  return (
    <section className="kiosk-pay" aria-labelledby="review-heading" aria-busy={cartBusy}>
      <h2 id="review-heading">{t('kiosk.review')}</h2>
      {cartError && !noRate && <ErrorAlert t={t} error={cartError} customer onDismiss={actions.errorDismissed} />}
      <ReceiptLines lines={cart.receiptLines} locale={locale} heading={t('receipt.heading')} />
      <ExtrasList
        t={t}
        locale={locale}
        cart={cart}
        disabled={busy}
        onAdd={(extraId) => void actions.extraAdded(extraId)}
        onChange={(itemId, quantity) => void actions.extraChanged(itemId, quantity)}
        onRemove={(itemId) => void actions.extraRemoved(itemId)}
      />
      <div className="kiosk-options">
        <CurrencySelect t={t} currencies={cart.options.currencies} value={cart.currency} disabled={busy} onChange={(currency) => void actions.currencyChosen(currency)} />
        <CurrencyProgress t={t} />
        {cartError && noRate && (
          <div role="alert" className="error" data-code={cartError.code}>
            <p>{t('kiosk.currencyUnavailable', { currency: String(cartError.details['currency'] ?? ''), base: cart.currency })}</p>
            <button type="button" className="secondary" onClick={actions.errorDismissed}>
              {t('error.dismiss')}
            </button>
          </div>
        )}
        {giftCard ? null : voucherOpen ? (
          <VoucherForm t={t} keypad vouchers={cart.vouchers} disabled={busy} onApply={applyVoucher} onRemove={removeVoucher} />
        ) : (
          <>
            <VoucherChips t={t} vouchers={cart.vouchers} onRemove={removeVoucher} />
            <button type="button" className="secondary big" onClick={() => setVoucherOpen(true)}>
              {t('kiosk.haveVoucher')}
            </button>
          </>
        )}
        {/* A gift card never pays for a gift card (contract §13). */}
        {!giftCard && !giftCardOpen && (
          <button type="button" id="pay-gift-card" className="secondary big" disabled={busy} onClick={() => setGiftCardOpen(true)}>
            {t('giftCard.pay')}
          </button>
        )}
      </div>
      {giftError && !giftCardOpen && <ErrorAlert t={t} error={giftError} customer onDismiss={gift.errorDismissed} />}
      {!giftCard && quote && <GiftCardParts t={t} locale={locale} quote={quote} busy={busy} onRemove={(code) => void gift.cardRemoved(code)} />}
      {!giftCard && giftCardOpen && !covered && (
        <GiftCardForm t={t} keypad busy={busy} error={giftError} onCode={takeGiftCard} onDismissError={gift.errorDismissed} />
      )}
      {testTokens.length > 0 && (
        <div className="card-step">
          <label className="field">
            {t('card.testCard')}
            <select aria-label={t('card.testCard')} value={card} disabled={busy} onChange={(event) => setCard(Number(event.target.value))}>
              {testTokens.map((option, index) => {
                const outcome = outcomeKey(option);
                return (
                  <option key={option} value={index}>
                    {outcome ? t(outcome) : t('testCard.other', { n: index + 1 })}
                  </option>
                );
              })}
            </select>
          </label>
        </div>
      )}
      {actionSlot ? createPortal(payAction, actionSlot) : payAction}
      {phase === 'challenge' && challenge && (
        <ThreeDSDialog t={t} url={challenge.url} reference={challenge.reference} onResult={checkout.challengeAnswered} onCancel={checkout.challengeCancelled} />
      )}
    </section>
  );
}
