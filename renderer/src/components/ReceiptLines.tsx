import type { ReceiptLine } from '../api/types';
import { formatMoney } from '../format';

/** Receipt lines in the engine's order, each with its sign: a credit shows with a minus. */
export function ReceiptLines({ lines, locale, heading }: { lines: readonly ReceiptLine[]; locale: string; heading: string }) {
  return (
    <table className="receipt">
      <caption>{heading}</caption>
      <tbody>
        {lines.map((line, index) => (
          <tr key={`${line.type}-${index}`} className={line.sign < 0 ? 'credit' : undefined}>
            <th scope="row">{line.label}</th>
            <td>
              {line.sign < 0 ? '−' : ''}
              {formatMoney(line.amount, locale)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
