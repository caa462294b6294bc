import { useSession, type Language } from '../stores/session';

/** The printing screens' words, kept apart from the main dictionaries. */
const en = {
  'print.printing': 'Printing your tickets…',
  'print.done': 'Tickets printed. Please take them from the printer.',
  'print.doneStaff': 'Printed',
  'print.waiting': 'Waiting for the printer…',
  'print.failedKiosk': 'The printer has a problem. Please show this code to staff: {code}',
  'print.failedStaff': 'Not printed: {reason}',
  'print.retrying': 'Not printed yet, trying again: {reason}',
  'print.button': 'Print (F9)',
  'print.pdfA4': 'Tickets PDF (A4)',
  'print.pdf80': 'Tickets PDF (80 mm)',
  'print.queue': 'Print queue',
  'print.queueHeading': 'Print queue',
  'print.back': 'Back',
  'print.empty': 'No print jobs yet.',
  'print.reprint': 'Reprint {code}',
  'print.code': 'Code',
  'print.order': 'Order',
  'print.what': 'What',
  'print.printer': 'Printer',
  'print.state': 'State',
  'print.time': 'Time',
  'print.what.all': 'Tickets and receipt',
  'print.what.tickets': 'Tickets',
  'print.what.receipt': 'Receipt',
  'print.state.queued': 'Queued',
  'print.state.printing': 'Printing',
  'print.state.done': 'Done',
  'print.state.failed': 'Failed',
  'print.down': 'Printer down: {printer}',
} as const;

export type PrintKey = keyof typeof en;

const de: Record<PrintKey, string> = {
  'print.printing': 'Ihre Karten werden gedruckt …',
  'print.done': 'Karten gedruckt. Bitte nehmen Sie sie aus dem Drucker.',
  'print.doneStaff': 'Gedruckt',
  'print.waiting': 'Warte auf den Drucker …',
  'print.failedKiosk': 'Der Drucker hat ein Problem. Bitte zeigen Sie diesen Code dem Personal: {code}',
  'print.failedStaff': 'Nicht gedruckt: {reason}',
  'print.retrying': 'Noch nicht gedruckt, neuer Versuch folgt: {reason}',
  'print.button': 'Drucken (F9)',
  'print.pdfA4': 'Karten als PDF (A4)',
  'print.pdf80': 'Karten als PDF (80 mm)',
  'print.queue': 'Druckwarteschlange',
  'print.queueHeading': 'Druckwarteschlange',
  'print.back': 'Zurück',
  'print.empty': 'Noch keine Druckaufträge.',
  'print.reprint': '{code} erneut drucken',
  'print.code': 'Code',
  'print.order': 'Bestellung',
  'print.what': 'Was',
  'print.printer': 'Drucker',
  'print.state': 'Status',
  'print.time': 'Zeit',
  'print.what.all': 'Karten und Beleg',
  'print.what.tickets': 'Karten',
  'print.what.receipt': 'Beleg',
  'print.state.queued': 'Wartet',
  'print.state.printing': 'Druckt',
  'print.state.done': 'Fertig',
  'print.state.failed': 'Fehlgeschlagen',
  'print.down': 'Drucker gestört: {printer}',
};

const fr: Record<PrintKey, string> = {
  'print.printing': 'Impression de vos billets…',
  'print.done': 'Billets imprimés. Veuillez les prendre dans l’imprimante.',
  'print.doneStaff': 'Imprimé',
  'print.waiting': 'En attente de l’imprimante…',
  'print.failedKiosk': 'L’imprimante a un problème. Montrez ce code au personnel : {code}',
  'print.failedStaff': 'Non imprimé : {reason}',
  'print.retrying': 'Pas encore imprimé, nouvel essai : {reason}',
  'print.button': 'Imprimer (F9)',
  'print.pdfA4': 'Billets en PDF (A4)',
  'print.pdf80': 'Billets en PDF (80 mm)',
  'print.queue': 'File d’impression',
  'print.queueHeading': 'File d’impression',
  'print.back': 'Retour',
  'print.empty': 'Aucune impression pour l’instant.',
  'print.reprint': 'Réimprimer {code}',
  'print.code': 'Code',
  'print.order': 'Commande',
  'print.what': 'Contenu',
  'print.printer': 'Imprimante',
  'print.state': 'État',
  'print.time': 'Heure',
  'print.what.all': 'Billets et reçu',
  'print.what.tickets': 'Billets',
  'print.what.receipt': 'Reçu',
  'print.state.queued': 'En attente',
  'print.state.printing': 'En cours',
  'print.state.done': 'Terminé',
  'print.state.failed': 'Échoué',
  'print.down': 'Imprimante en panne : {printer}',
};

const dictionaries: Record<Language, Record<PrintKey, string>> = { en, de, fr };

export type PrintTranslate = (key: PrintKey, values?: Record<string, string | number>) => string;

export function usePrintT(): PrintTranslate {
  const language = useSession((state) => state.language);
  return (key, values = {}) => dictionaries[language][key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
}
