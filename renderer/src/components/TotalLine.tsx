import type { Money } from '../api/types';
import { formatMoney } from '../format';

/** The total, labelled `Total` for people and screen readers (contract §9). */
export function TotalLine({ id, label, total, locale }: { id: string; label: string; total: Money; locale: string }) {
  return (
    <p className="total">
      <span id={id}>{label}</span>{' '}
      <output aria-labelledby={id} className="amount">
        {formatMoney(total, locale)}
      </output>
    </p>
  );
}
