import type { Money } from '../domain/money';

/**
 * Reading the `data` of a journal entry for the export. The journal stores it as JSON its writers shaped
 * (design: order, cancellation, payIn/payOut, shiftOpened, shiftClosed); the export reads what it needs and
 * writes an empty field where something is missing — an export must list every entry, never refuse one.
 */

type Json = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `data[name]` when data is an object */
export function field(data: unknown, name: string): unknown {
  return isRecord(data) ? data[name] : undefined;
}

/** a text field, or undefined */
export function text(data: unknown, name: string): string | undefined {
  const value = field(data, name);
  return typeof value === 'string' ? value : undefined;
}

/** a Money value (`{ amount, currency }` with an integer amount), or undefined */
export function asMoney(value: unknown): Money | undefined {
  if (!isRecord(value)) return undefined;
  const { amount, currency } = value;
  return typeof amount === 'number' && Number.isSafeInteger(amount) && typeof currency === 'string' ? { amount, currency } : undefined;
}

/** the payments of an order or the refunds of a cancellation: `[{ method, amount: Money }]` */
export function payments(data: unknown, name: 'payments' | 'refunds'): { method: string; amount: Money }[] {
  const value = field(data, name);
  if (!Array.isArray(value)) return [];
  return value.flatMap((part: unknown) => {
    const method = text(part, 'method');
    const amount = asMoney(field(part, 'amount'));
    return method !== undefined && amount ? [{ method, amount }] : [];
  });
}

/** the number of tickets of an order entry: Σ of its events' `tickets` */
export function ticketCount(data: unknown): number {
  const events = field(data, 'events');
  if (!Array.isArray(events)) return 0;
  return events.reduce((sum: number, event: unknown) => {
    const tickets = field(event, 'tickets');
    return sum + (typeof tickets === 'number' && Number.isSafeInteger(tickets) ? tickets : 0);
  }, 0);
}

/** payments as one field: `method=amount CUR` joined by `;` (amounts in minor units), e.g. `card=1200 EUR;cash=300 EUR` */
export function paymentsField(parts: readonly { method: string; amount: Money }[]): string {
  return parts.map((part) => `${part.method}=${part.amount.amount} ${part.amount.currency}`).join(';');
}
