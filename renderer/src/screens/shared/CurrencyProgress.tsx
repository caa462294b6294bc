import type { Translate } from '../../i18n/i18n';
import { useCart } from '../../stores/cart';

/**
 * While the engine reprices the cart in another currency: a spinner and "Converting to USD…" in a polite
 * status, so the greyed-out cart is seen to be working rather than stuck.
 */
export function CurrencyProgress({ t }: { t: Translate }) {
  const converting = useCart((state) => state.converting);
  // The live region is always there, so screen readers announce the text when it appears.
  return (
    <p role="status" aria-live="polite" className="converting">
      {converting && (
        <>
          <span className="spinner" aria-hidden="true" />
          {t('currency.converting', { currency: converting })}
        </>
      )}
    </p>
  );
}
