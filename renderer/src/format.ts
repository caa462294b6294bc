import currencyCodes from 'currency-codes';
import type { Money } from './api/types';

/**
 * Display only — the UI computes no price. Minor units become an exact decimal string (no float
 * division) with the currency's ISO 4217 scale, which Intl then formats for the locale.
 */
export function formatMoney(money: Money, locale: string): string {
  const scale = currencyScale(money.currency);
  const decimal = `${money.amount < 0 ? '-' : ''}${minorToDecimal(Math.abs(money.amount), scale)}`;
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency, minimumFractionDigits: scale, maximumFractionDigits: scale });
  return isNumericLiteral(decimal) ? format.format(decimal) : `${decimal} ${money.currency}`;
}

/** The ISO 4217 number of minor-unit digits (JPY 0, EUR 2, KWD 3). */
export function currencyScale(currency: string): number {
  return currencyCodes.code(currency)?.digits ?? 2;
}

/** 4250 at scale 2 → "42.50": exact, by digits. */
export function minorToDecimal(amount: number, scale: number): string {
  const digits = String(amount).padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** Intl formats a decimal string exactly (no float on the way). */
function isNumericLiteral(text: string): text is Intl.StringNumericLiteral {
  return /^-?\d+(\.\d+)?$/.test(text);
}

/** A show's date and time as the venue's clock shows it (its IANA time zone), else this computer's. */
export function formatDateTime(iso: string, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short', ...(validZone(timeZone) && { timeZone }) }).format(new Date(iso));
}

/** The time alone (today's sales list), in the given zone. */
export function formatTime(iso: string, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short', ...(validZone(timeZone) && { timeZone }) }).format(new Date(iso));
}

function validZone(timeZone: string | undefined): timeZone is string {
  if (!timeZone) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false; // a zone this runtime does not know: the computer's own clock stands in
  }
}

export function formatCountdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** A gift card's code as receipts and screens show it: its last four characters only (`****ABCD`). */
export function maskGiftCardCode(code: string): string {
  return `****${code.replace(/[\s-]/g, '').toUpperCase().slice(-4)}`;
}

/** A show's start in short, as the gate says it ("Sun 30 Nov, 20:00"), on the venue's clock. */
export function formatShortDateTime(iso: string, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', ...(validZone(timeZone) && { timeZone }) }).format(new Date(iso));
}
