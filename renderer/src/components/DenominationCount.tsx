import type { KeyboardEvent } from 'react';
import type { Denomination } from '../denominations';
import { formatMoney } from '../format';
import type { ShiftTranslate } from '../i18n/shifts';

interface Props {
  t: ShiftTranslate;
  locale: string;
  currency: string;
  denominations: readonly Denomination[];
  /** how many of each face value (minor units) were counted, as typed */
  counts: Readonly<Record<number, string>>;
  onCount(value: number, typed: string): void;
}

/**
 * Enter in a count moves on to the next count (and after the last, to the field after the table) rather than
 * submitting the dialog: a close is not undone, so it takes the dialog's own button or Enter outside the table.
 */
function nextOnEnter(event: KeyboardEvent<HTMLInputElement>): void {
  if (event.key !== 'Enter') return;
  event.preventDefault();
  const fields = [...(event.currentTarget.form?.querySelectorAll<HTMLInputElement>('input') ?? [])];
  fields[fields.indexOf(event.currentTarget) + 1]?.focus();
}

/**
 * The drawer counted note by note and coin by coin: one spinbutton per face value, notes first. Each is named
 * for its face value ("Number of €50.00 notes"), so Tab walks down the table and digits fill it.
 */
export function DenominationCount({ t, locale, currency, denominations, counts, onCount }: Props) {
  const group = (kind: Denomination['kind']) => denominations.filter((denomination) => denomination.kind === kind);
  return (
    <fieldset className="denominations">
      <legend>{t('drawer.count')}</legend>
      <p className="hint">{t('drawer.countHint')}</p>
      <div className="denomination-groups">
        {(['note', 'coin'] as const).map((kind) =>
          group(kind).length === 0 ? null : (
            <div key={kind} className="denomination-group" role="group" aria-label={t(kind === 'note' ? 'drawer.notes' : 'drawer.coins')}>
              {group(kind).map(({ value }) => {
                const face = formatMoney({ amount: value, currency }, locale);
                return (
                  <label key={value} className="denomination">
                    <span className="face" aria-hidden="true">
                      {face}
                    </span>
                    <input
                      type="number"
                      min={0}
                      step={1}
                      inputMode="numeric"
                      aria-label={t(kind === 'note' ? 'drawer.note.one' : 'drawer.coin.one', { value: face })}
                      value={counts[value] ?? ''}
                      onChange={(event) => onCount(value, event.target.value)}
                      onKeyDown={nextOnEnter}
                    />
                  </label>
                );
              })}
            </div>
          ),
        )}
      </div>
    </fieldset>
  );
}
