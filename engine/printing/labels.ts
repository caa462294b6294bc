import { scaleOf } from '../domain/currencies';
import type { PrintLanguage } from '../contract/printing';

/** What a ticket and a receipt say, in the order's language (contract §12), and how they write money and dates. */

const LABELS = {
  en: {
    ticket: 'Ticket', giftCard: 'Gift card', value: 'Value', area: 'Area', seat: 'Seat', order: 'Order', receipt: 'Receipt', total: 'Total',
    paidCard: 'Paid by card', paidCash: 'Paid in cash', paidExternal: 'Paid', paidGiftCard: 'Paid by gift card', balanceLeft: 'Balance left', tendered: 'Tendered', change: 'Change', refunded: 'Refunded',
    cancelled: 'CANCELLED', thanks: 'Thank you!', ticketOf: 'Ticket {n} of {count}',
  },
  de: {
    ticket: 'Eintrittskarte', giftCard: 'Geschenkkarte', value: 'Wert', area: 'Bereich', seat: 'Platz', order: 'Bestellung', receipt: 'Beleg', total: 'Summe',
    paidCard: 'Bezahlt mit Karte', paidCash: 'Bar bezahlt', paidExternal: 'Bezahlt', paidGiftCard: 'Bezahlt mit Geschenkkarte', balanceLeft: 'Restguthaben', tendered: 'Gegeben', change: 'Rückgeld', refunded: 'Erstattet',
    cancelled: 'STORNIERT', thanks: 'Vielen Dank!', ticketOf: 'Karte {n} von {count}',
  },
  fr: {
    ticket: 'Billet', giftCard: 'Carte cadeau', value: 'Valeur', area: 'Zone', seat: 'Place', order: 'Commande', receipt: 'Reçu', total: 'Total',
    paidCard: 'Payé par carte', paidCash: 'Payé en espèces', paidExternal: 'Payé', paidGiftCard: 'Payé par carte cadeau', balanceLeft: 'Solde restant', tendered: 'Reçu', change: 'Rendu', refunded: 'Remboursé',
    cancelled: 'ANNULÉ', thanks: 'Merci !', ticketOf: 'Billet {n} sur {count}',
  },
} as const satisfies Record<PrintLanguage, Record<string, string>>;

export type Labels = (typeof LABELS)[PrintLanguage];

const LOCALES: Record<PrintLanguage, string> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR' };

export function labelsFor(language: PrintLanguage): Labels {
  return LABELS[language];
}

export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
}

/** Spaces a thermal printer's code pages lack (narrow and non-breaking) become plain spaces. */
const plainSpaces = (text: string) => text.replace(/[\u00a0\u202f\u2009]/g, ' ');

/**
 * Money in minor units, written for `language`. The amount reaches Intl as a decimal string built from the
 * integer (Intl.NumberFormat v3), so no float ever holds it.
 */
export function formatMoney(money: { amount: number; currency: string }, language: PrintLanguage): string {
  const scale = scaleOf(money.currency);
  const digits = Math.abs(money.amount).toString().padStart(scale + 1, '0');
  const decimal = `${money.amount < 0 ? '-' : ''}${scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`}`;
  const format = new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency: money.currency, minimumFractionDigits: scale, maximumFractionDigits: scale });
  return plainSpaces(format.format(decimal as `${number}`));
}

/** A date and time in `timeZone` (the venue's: the zone of the terminal that prints), e.g. "Friday, 12 March 2027, 20:30". */
export function formatDateTime(iso: string, language: PrintLanguage, timeZone: string): string {
  const format = new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'full', timeStyle: 'short', timeZone });
  return plainSpaces(format.format(new Date(iso)));
}

export function formatShortDateTime(iso: string, language: PrintLanguage, timeZone: string): string {
  const format = new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'short', timeStyle: 'short', timeZone });
  return plainSpaces(format.format(new Date(iso)));
}
