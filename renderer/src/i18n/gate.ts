import { useSession, type Language } from '../stores/session';

/**
 * The gate screen's words (contract §9 "Gate", §15), kept apart from the main dictionaries like the drawer's
 * (shifts.ts). A verdict's first word is what door staff read at a glance — and what the tests look for in English.
 */
const en = {
  'gate.heading': 'Ticket check',
  'gate.show': 'Show',
  'gate.noShows': 'No shows in the catalog',
  'gate.code': 'Ticket code',
  'gate.check': 'Check',
  'gate.exit': 'Exit',
  'gate.exitHint': 'Exit is on: tickets are let out, and may come back in.',
  'gate.name': 'Gate name',
  'gate.camera': 'Camera',
  'gate.cameraPreview': 'Camera picture',
  'gate.cameraStarting': 'Starting the camera…',
  'gate.cameraNone': 'No camera: it needs a secure page (https, or this computer) and permission to use the camera.',
  'gate.cameraFailed': 'The camera could not start: {reason}',
  'gate.ready': 'Ready: scan a ticket or type its code, then Enter.',
  'gate.checking': 'Checking…',
  'gate.admitted': 'Admitted',
  'gate.left': 'Left',
  'gate.leftReason': '— may come back in with this ticket',
  'gate.already': 'Already inside',
  'gate.alreadyReason': 'since {time} at gate {gate}',
  'gate.wrongShow': 'Wrong show',
  'gate.wrongShowReason': '— this ticket is for {when}',
  'gate.cancelled': 'Cancelled',
  'gate.invalid': 'Not valid',
  'gate.notInside': 'Not inside',
  'gate.notInsideReason': '— this ticket has not come in, so it cannot go out',
  'gate.unknownShow': 'Show not found',
  'gate.unknownShowReason': '— choose the show again',
  'gate.failed': 'No answer',
  'gate.failedReason': '— check the ticket again',
  'gate.seat': 'seat {seat}',
  'gate.counts': 'Counts',
  'gate.inside': 'Inside',
  'gate.admittedCount': 'Admitted',
  'gate.sold': 'Sold',
  'gate.capacity': 'Capacity',
};
export type GateKey = keyof typeof en;

const de: Record<GateKey, string> = {
  'gate.heading': 'Einlasskontrolle',
  'gate.show': 'Vorstellung',
  'gate.noShows': 'Keine Vorstellungen im Katalog',
  'gate.code': 'Ticketcode',
  'gate.check': 'Prüfen',
  'gate.exit': 'Ausgang',
  'gate.exitHint': 'Ausgang ist an: Tickets werden hinausgelassen und dürfen wieder herein.',
  'gate.name': 'Name des Eingangs',
  'gate.camera': 'Kamera',
  'gate.cameraPreview': 'Kamerabild',
  'gate.cameraStarting': 'Kamera startet…',
  'gate.cameraNone': 'Keine Kamera: Sie braucht eine sichere Seite (https oder dieser Computer) und die Erlaubnis, die Kamera zu nutzen.',
  'gate.cameraFailed': 'Die Kamera startet nicht: {reason}',
  'gate.ready': 'Bereit: Ticket scannen oder Code eingeben, dann Enter.',
  'gate.checking': 'Wird geprüft…',
  'gate.admitted': 'Eingelassen',
  'gate.left': 'Hinausgegangen',
  'gate.leftReason': '— darf mit diesem Ticket wieder herein',
  'gate.already': 'Bereits drinnen',
  'gate.alreadyReason': 'seit {time} an Eingang {gate}',
  'gate.wrongShow': 'Falsche Vorstellung',
  'gate.wrongShowReason': '— dieses Ticket gilt für {when}',
  'gate.cancelled': 'Storniert',
  'gate.invalid': 'Ungültig',
  'gate.notInside': 'Nicht drinnen',
  'gate.notInsideReason': '— dieses Ticket ist nicht hereingekommen, kann also nicht hinaus',
  'gate.unknownShow': 'Vorstellung unbekannt',
  'gate.unknownShowReason': '— bitte die Vorstellung neu wählen',
  'gate.failed': 'Keine Antwort',
  'gate.failedReason': '— Ticket bitte noch einmal prüfen',
  'gate.seat': 'Platz {seat}',
  'gate.counts': 'Zahlen',
  'gate.inside': 'Drinnen',
  'gate.admittedCount': 'Eingelassen',
  'gate.sold': 'Verkauft',
  'gate.capacity': 'Kapazität',
};

const fr: Record<GateKey, string> = {
  'gate.heading': 'Contrôle des billets',
  'gate.show': 'Séance',
  'gate.noShows': 'Aucune séance au catalogue',
  'gate.code': 'Code du billet',
  'gate.check': 'Vérifier',
  'gate.exit': 'Sortie',
  'gate.exitHint': 'Sortie activée : les billets sortent et peuvent revenir.',
  'gate.name': 'Nom de l’entrée',
  'gate.camera': 'Caméra',
  'gate.cameraPreview': 'Image de la caméra',
  'gate.cameraStarting': 'Démarrage de la caméra…',
  'gate.cameraNone': 'Pas de caméra : il faut une page sécurisée (https, ou cet ordinateur) et l’autorisation d’utiliser la caméra.',
  'gate.cameraFailed': 'La caméra ne démarre pas : {reason}',
  'gate.ready': 'Prêt : scannez un billet ou tapez son code, puis Entrée.',
  'gate.checking': 'Vérification…',
  'gate.admitted': 'Entrée autorisée',
  'gate.left': 'Sorti',
  'gate.leftReason': '— peut revenir avec ce billet',
  'gate.already': 'Déjà entré',
  'gate.alreadyReason': 'depuis {time} à l’entrée {gate}',
  'gate.wrongShow': 'Mauvaise séance',
  'gate.wrongShowReason': '— ce billet est pour {when}',
  'gate.cancelled': 'Annulé',
  'gate.invalid': 'Non valable',
  'gate.notInside': 'Pas entré',
  'gate.notInsideReason': '— ce billet n’est pas entré, il ne peut pas sortir',
  'gate.unknownShow': 'Séance inconnue',
  'gate.unknownShowReason': '— choisissez de nouveau la séance',
  'gate.failed': 'Pas de réponse',
  'gate.failedReason': '— vérifiez de nouveau le billet',
  'gate.seat': 'place {seat}',
  'gate.counts': 'Chiffres',
  'gate.inside': 'Présents',
  'gate.admittedCount': 'Entrés',
  'gate.sold': 'Vendus',
  'gate.capacity': 'Capacité',
};

const dictionaries: Record<Language, Record<GateKey, string>> = { en, de, fr };

export type GateTranslate = (key: GateKey, values?: Record<string, string | number>) => string;

/** The gate's words in a language (for tests and the hook below). */
export function gateTranslator(language: Language): GateTranslate {
  return (key, values = {}) => dictionaries[language][key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
}

/** The gate's words in the chosen language. */
export function useGateT(): GateTranslate {
  return gateTranslator(useSession((state) => state.language));
}
