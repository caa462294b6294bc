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
  'print.what.xReport': 'X report',
  'print.what.zReport': 'Z report',
  'print.state.queued': 'Queued',
  'print.state.printing': 'Printing',
  'print.state.done': 'Done',
  'print.state.failed': 'Failed',
  'print.down': 'Printer down: {printer}',
  // box office (#22)
  'print.noPrinter': 'No printer is set up, so nothing was printed. Download the tickets PDF below (A4 or 80 mm) and print it elsewhere, or ask for a printer to be set up.',
  'print.reprintOrder': 'Reprint tickets and receipt (F9)',
  'print.failedWhat': 'Reprint once the printer is ready (F9, or the Print queue), or download the tickets PDF below.',
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
  'print.what.xReport': 'X-Bericht',
  'print.what.zReport': 'Z-Bericht',
  'print.state.queued': 'Wartet',
  'print.state.printing': 'Druckt',
  'print.state.done': 'Fertig',
  'print.state.failed': 'Fehlgeschlagen',
  'print.down': 'Drucker gestört: {printer}',
  // box office (#22)
  'print.noPrinter': 'Kein Drucker eingerichtet, es wurde nichts gedruckt. Laden Sie unten die Karten als PDF (A4 oder 80 mm) herunter und drucken Sie sie anderswo, oder lassen Sie einen Drucker einrichten.',
  'print.reprintOrder': 'Karten und Beleg erneut drucken (F9)',
  'print.failedWhat': 'Erneut drucken, sobald der Drucker bereit ist (F9 oder Druckwarteschlange), oder unten die Karten als PDF herunterladen.',
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
  'print.what.xReport': 'Rapport X',
  'print.what.zReport': 'Rapport Z',
  'print.state.queued': 'En attente',
  'print.state.printing': 'En cours',
  'print.state.done': 'Terminé',
  'print.state.failed': 'Échoué',
  'print.down': 'Imprimante en panne : {printer}',
  // box office (#22)
  'print.noPrinter': 'Aucune imprimante n’est configurée : rien n’a été imprimé. Téléchargez ci-dessous les billets en PDF (A4 ou 80 mm) pour les imprimer ailleurs, ou faites configurer une imprimante.',
  'print.reprintOrder': 'Réimprimer billets et reçu (F9)',
  'print.failedWhat': 'Réimprimez quand l’imprimante est prête (F9 ou file d’impression) ou téléchargez ci-dessous les billets en PDF.',
};

const dictionaries: Record<Language, Record<PrintKey, string>> = { en, de, fr };

export type PrintTranslate = (key: PrintKey, values?: Record<string, string | number>) => string;

export function usePrintT(): PrintTranslate {
  const language = useSession((state) => state.language);
  return (key, values = {}) => dictionaries[language][key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
}
