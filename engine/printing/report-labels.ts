import type { PrintLanguage } from '../contract/printing';

/** What an X or Z report says on paper (design "Export and print"), in the language the print was asked in. */

const REPORT_LABELS = {
  en: {
    xReport: 'X report', zReport: 'Z report', shift: 'Shift {n}', zNumber: 'Z no. {n}', opened: 'Opened', closed: 'Closed', staff: 'Staff',
    sales: 'Sales', orders: 'Orders ({n})', cancellations: 'Cancellations ({n})', payments: 'Payments', events: 'Events', tickets: '{n} tickets',
    drawer: 'Cash drawer', openingFloat: 'Opening float', cashSales: 'Cash sales', cashRefunds: 'Cash refunds', payIns: 'Pay-ins', payOuts: 'Pay-outs',
    expected: 'Expected', counted: 'Counted', difference: 'Difference', note: 'Note', openNote: 'Shift still open: figures so far',
    cash: 'Cash', card: 'Card', giftCard: 'Gift card', external: 'External',
  },
  de: {
    xReport: 'X-Bericht', zReport: 'Z-Bericht', shift: 'Schicht {n}', zNumber: 'Z-Nr. {n}', opened: 'Geöffnet', closed: 'Geschlossen', staff: 'Personal',
    sales: 'Verkäufe', orders: 'Bestellungen ({n})', cancellations: 'Stornos ({n})', payments: 'Zahlungen', events: 'Veranstaltungen', tickets: '{n} Karten',
    drawer: 'Kassenlade', openingFloat: 'Anfangsbestand', cashSales: 'Barverkäufe', cashRefunds: 'Barerstattungen', payIns: 'Einlagen', payOuts: 'Entnahmen',
    expected: 'Soll', counted: 'Gezählt', difference: 'Differenz', note: 'Notiz', openNote: 'Schicht noch offen: Stand bisher',
    cash: 'Bar', card: 'Karte', giftCard: 'Geschenkkarte', external: 'Extern',
  },
  fr: {
    xReport: 'Rapport X', zReport: 'Rapport Z', shift: 'Session {n}', zNumber: 'Z n° {n}', opened: 'Ouverture', closed: 'Clôture', staff: 'Personnel',
    sales: 'Ventes', orders: 'Commandes ({n})', cancellations: 'Annulations ({n})', payments: 'Paiements', events: 'Événements', tickets: '{n} billets',
    drawer: 'Tiroir-caisse', openingFloat: 'Fond de caisse', cashSales: 'Ventes en espèces', cashRefunds: 'Remboursements en espèces', payIns: 'Entrées', payOuts: 'Sorties',
    expected: 'Attendu', counted: 'Compté', difference: 'Écart', note: 'Note', openNote: 'Session encore ouverte : chiffres à ce stade',
    cash: 'Espèces', card: 'Carte', giftCard: 'Carte cadeau', external: 'Externe',
  },
} as const satisfies Record<PrintLanguage, Record<string, string>>;

export type ReportLabels = (typeof REPORT_LABELS)[PrintLanguage];

/** The report's labels in `language`. */
export function reportLabelsFor(language: PrintLanguage): ReportLabels {
  return REPORT_LABELS[language];
}

/** A payment method's name on paper; a method the engine learns later prints as its id. */
export function methodLabel(labels: ReportLabels, method: string): string {
  return method === 'cash' || method === 'card' || method === 'giftCard' || method === 'external' ? labels[method] : method;
}
