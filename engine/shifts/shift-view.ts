import type { Money } from '../domain/money';
import type { Shift } from '../contract/shift';
import type { ShiftRow } from '../store/shift-repo';

/** A shift as the API shows it (contract §14): money in the shift's currency, times ISO 8601; absent fields left out. */
export function shiftView(row: Omit<ShiftRow, 'report'>): Shift {
  const money = (amount: number): Money => ({ amount, currency: row.currency });
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    openedAt: new Date(row.openedAt).toISOString(),
    openingFloat: money(row.openingFloat),
    ...(row.staff !== null && { staff: row.staff }),
    ...(row.closedAt !== null && { closedAt: new Date(row.closedAt).toISOString() }),
    ...(row.zNumber !== null && { zNumber: row.zNumber }),
    ...(row.expected !== null && { expected: money(row.expected) }),
    ...(row.counted !== null && { counted: money(row.counted) }),
    ...(row.difference !== null && { difference: money(row.difference) }),
    ...(row.note !== null && { note: row.note }),
  };
}
