import { useCallback } from 'react';
import { CurrencySelect, ExtrasList, VoucherForm } from '../../components/CartControls';
import { ErrorAlert } from '../../components/ErrorAlert';
import { HoldTimer } from '../../components/HoldTimer';
import { ReceiptLines } from '../../components/ReceiptLines';
import { TotalLine } from '../../components/TotalLine';
import { useLocale, useT } from '../../i18n/i18n';
import { cartStore, useCart } from '../../stores/cart';
import { catalogStore } from '../../stores/catalog';
import { CurrencyProgress } from './CurrencyProgress';

/** The held cart: countdown, receipt lines in order with their signs, total, and what can still change. */
export function CartPanel({ extras = true, controls = true }: { extras?: boolean; controls?: boolean }) {
  const t = useT();
  const locale = useLocale();
  const cart = useCart((state) => state.cart);
  const busy = useCart((state) => state.busy);
  const error = useCart((state) => state.error);
  const expired = useCart((state) => state.expired);
  const actions = cartStore.getState();
  /** The cart and the ticket prices beside it follow the new currency, both as the engine prices them. */
  const currencySwitched = async (currency: string) => {
    await cartStore.getState().currencyChosen(currency);
    await catalogStore.getState().inventoryRefreshed(cartStore.getState().cart?.currency);
  };
  const onExpired = useCallback(() => {
    cartStore.getState().holdExpired();
    void catalogStore.getState().inventoryRefreshed();
  }, []);

  return (
    <section className="cart" aria-labelledby="cart-heading" aria-busy={busy}>
      <h2 id="cart-heading">{t('cart.heading')}</h2>
      {expired && (
        <div role="alert" className="error">
          <p>{t('hold.expired')}</p>
          <button type="button" onClick={actions.errorDismissed}>
            {t('error.dismiss')}
          </button>
        </div>
      )}
      {error && <ErrorAlert t={t} error={error} onDismiss={actions.errorDismissed} />}
      {!cart ? (
        <p className="hint">{t('cart.empty')}</p>
      ) : (
        <>
          <HoldTimer t={t} expiresAt={cart.expiresAt} onExpired={onExpired} />
          <ReceiptLines lines={cart.receiptLines} locale={locale} heading={t('receipt.heading')} />
          <TotalLine id="total-label" label={t('total.label')} total={cart.total} locale={locale} />
          {controls && (
            <div className="cart-controls">
              <CurrencySelect t={t} currencies={cart.options.currencies} value={cart.currency} disabled={busy} onChange={(currency) => void currencySwitched(currency)} />
              <CurrencyProgress t={t} />
              <VoucherForm t={t} vouchers={cart.vouchers} disabled={busy} onApply={actions.voucherApplied} onRemove={(code) => void actions.voucherRemoved(code)} />
            </div>
          )}
          {extras && (
            <ExtrasList
              t={t}
              locale={locale}
              cart={cart}
              disabled={busy}
              onAdd={(extraId) => void actions.extraAdded(extraId)}
              onChange={(itemId, quantity) => void actions.extraChanged(itemId, quantity)}
              onRemove={(itemId) => void actions.extraRemoved(itemId)}
            />
          )}
        </>
      )}
    </section>
  );
}
