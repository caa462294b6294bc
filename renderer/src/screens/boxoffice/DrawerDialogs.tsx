import { useState, type ReactNode } from 'react';
import type { ApiError } from '../../api/errors';
import type { Money } from '../../api/types';
import { DenominationCount } from '../../components/DenominationCount';
import { Modal } from '../../components/Modal';
import { parseTendered } from '../../components/PaymentPanel';
import { countedTotal, denominationsOf } from '../../denominations';
import { currencyScale, formatMoney, minorToDecimal } from '../../format';
import { useLocale } from '../../i18n/i18n';
import { useShiftT, type ShiftTranslate } from '../../i18n/shifts';
import { useCatalog } from '../../stores/catalog';
import { drawerStore, useDrawer } from '../../stores/drawer';

/**
 * The drawer's dialogs (contract §9 "Shifts"): `Open drawer` (the `Opening float`, then `Open shift`), `Pay in` and
 * `Pay out` (amount and reason), `Close shift` (`Counted cash`, filled by a count by denomination, then `Close
 * shift`). Amounts are in the base currency of the venue — the currency of the shift. The engine answers; what it
 * refuses (INSUFFICIENT_CASH, SHIFT_CLOSED, a field) is said in the dialog with role alert.
 */
export function DrawerDialogs() {
  const dialog = useDrawer((state) => state.dialog);
  if (dialog === 'open') return <OpenDrawerDialog />;
  if (dialog === 'payIn' || dialog === 'payOut') return <MovementDialog kind={dialog} />;
  if (dialog === 'close') return <CloseShiftDialog />;
  return null;
}

/** The base currency of the engine's location: the first location's first currency (the currency of every shift). */
function useBaseCurrency(): string | undefined {
  return useCatalog((state) => state.locations[0]?.availableCurrencies[0]);
}

function OpenDrawerDialog() {
  const t = useShiftT();
  const forCash = useDrawer((state) => state.forCash);
  const currency = useBaseCurrency();
  const [float, setFloat] = useState('');
  const amount = currency === undefined ? undefined : parseTendered(float, currencyScale(currency));
  return (
    <DrawerForm
      id="open-drawer"
      title={t('drawer.open')}
      submit={t('drawer.openShift')}
      ready={amount !== undefined}
      onSubmit={() => {
        if (currency !== undefined && amount !== undefined) void drawerStore.getState().openSubmitted({ amount, currency });
      }}
    >
      {forCash && <p className="drawer-why">{t('drawer.cashFirst')}</p>}
      <MoneyInput id="opening-float" label={t('drawer.openingFloat')} currency={currency} value={float} onChange={setFloat} invalid={float.trim() !== '' && amount === undefined} t={t} />
    </DrawerForm>
  );
}

function MovementDialog({ kind }: { kind: 'payIn' | 'payOut' }) {
  const t = useShiftT();
  const currency = useDrawer((state) => state.shift?.openingFloat.currency);
  const [typed, setTyped] = useState('');
  const [reason, setReason] = useState('');
  const amount = currency === undefined ? undefined : parseTendered(typed, currencyScale(currency));
  const name = t(kind === 'payIn' ? 'drawer.payIn' : 'drawer.payOut');
  return (
    <DrawerForm
      id="cash-movement"
      title={name}
      submit={name}
      ready={amount !== undefined && amount > 0 && reason.trim() !== ''}
      onSubmit={() => {
        if (currency !== undefined && amount !== undefined) void drawerStore.getState().movementSubmitted(kind, { amount, currency }, reason.trim());
      }}
    >
      <MoneyInput id="movement-amount" label={t('drawer.amount')} currency={currency} value={typed} onChange={setTyped} invalid={typed.trim() !== '' && amount === undefined} t={t} />
      <label className="field">
        {t('drawer.reason')}
        <input id="movement-reason" type="text" autoComplete="off" maxLength={200} required value={reason} onChange={(event) => setReason(event.target.value)} />
      </label>
    </DrawerForm>
  );
}

function CloseShiftDialog() {
  const t = useShiftT();
  const locale = useLocale();
  const currency = useDrawer((state) => state.shift?.openingFloat.currency);
  const [typed, setTyped] = useState('');
  const [counts, setCounts] = useState<Record<number, string>>({});
  const [note, setNote] = useState('');
  const scale = currency === undefined ? 2 : currencyScale(currency);
  const counted = parseTendered(typed, scale);
  const denominations = currency === undefined ? [] : denominationsOf(currency);
  const sum = countedTotal(denominations, counts);
  return (
    <DrawerForm
      id="close-shift"
      title={t('drawer.close')}
      submit={t('drawer.close')}
      ready={counted !== undefined}
      onSubmit={() => {
        if (currency !== undefined && counted !== undefined) void drawerStore.getState().closeSubmitted({ amount: counted, currency }, note.trim() || undefined);
      }}
    >
      {currency !== undefined && denominations.length > 0 && (
        <>
          <DenominationCount
            t={t}
            locale={locale}
            currency={currency}
            denominations={denominations}
            counts={counts}
            onCount={(value, count) => {
              const next = { ...counts, [value]: count };
              setCounts(next);
              // the count fills Counted cash: the sum of the notes and coins counted (counting, not pricing)
              const total = countedTotal(denominations, next);
              if (total !== undefined) setTyped(minorToDecimal(total, scale));
            }}
          />
          {sum !== undefined && <p className="count-sum">{t('drawer.countSum', { amount: formatMoney({ amount: sum, currency }, locale) })}</p>}
        </>
      )}
      <MoneyInput id="counted-cash" label={t('drawer.counted')} currency={currency} value={typed} onChange={setTyped} invalid={typed.trim() !== '' && counted === undefined} t={t} />
      <label className="field">
        {t('drawer.closeNote')}
        <input id="close-note" type="text" autoComplete="off" maxLength={500} value={note} onChange={(event) => setNote(event.target.value)} />
      </label>
    </DrawerForm>
  );
}

/** A drawer dialog: its fields, what the engine refused, `Cancel` and the action itself (Enter submits). */
function DrawerForm({ id, title, submit, ready, onSubmit, children }: { id: string; title: string; submit: string; ready: boolean; onSubmit(): void; children: ReactNode }) {
  const t = useShiftT();
  const busy = useDrawer((state) => state.busy);
  const error = useDrawer((state) => state.error);
  const close = drawerStore.getState().dialogClosed;
  return (
    <Modal id={id} title={title} className="drawer-dialog" onCancel={close}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (ready && !busy) onSubmit();
        }}
      >
        {children}
        {error && <DrawerError t={t} error={error} />}
        <div className="actions">
          <button type="button" className="secondary" onClick={close}>
            {t('drawer.cancel')}
          </button>
          <button type="submit" className="primary" disabled={busy || !ready}>
            {submit}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** An amount in the shift's currency, typed as staff say it ("150", "150.50", "150,50"). */
function MoneyInput(props: { id: string; label: string; currency: string | undefined; value: string; invalid: boolean; onChange(value: string): void; t: ShiftTranslate }) {
  const { id, label, currency, value, invalid, onChange, t } = props;
  return (
    <div className="field money-field">
      <label htmlFor={id}>{label}</label>
      <span className="with-unit">
        <input
          id={id}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          aria-invalid={invalid}
          aria-describedby={invalid ? `${id}-invalid` : undefined}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
        <span className="unit">{currency}</span>
      </span>
      {invalid && (
        <span id={`${id}-invalid`} className="hint">
          {t('drawer.invalid')}
        </span>
      )}
    </div>
  );
}

/** What the engine refused, in its words (localized), with the figure it gave where there is one. */
function DrawerError({ t, error }: { t: ShiftTranslate; error: ApiError }) {
  const locale = useLocale();
  const expected = isMoney(error.details.expected) ? error.details.expected : undefined;
  return (
    <div role="alert" className="error" data-code={error.code}>
      <p>{error.message}</p>
      {error.code === 'INSUFFICIENT_CASH' && expected && <p>{t('drawer.expected', { amount: formatMoney(expected, locale) })}</p>}
    </div>
  );
}

function isMoney(value: unknown): value is Money {
  return typeof value === 'object' && value !== null && 'amount' in value && typeof value.amount === 'number' && 'currency' in value && typeof value.currency === 'string';
}
