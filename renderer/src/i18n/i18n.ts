import { useSession, type Language } from '../stores/session';
import { de } from './de';
import { en, type MessageKey } from './en';
import { fr } from './fr';

const dictionaries: Record<Language, Record<MessageKey, string>> = { en, de, fr };
const locales: Record<Language, string> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR' };

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function translator(language: Language): Translate {
  return (key, values = {}) => dictionaries[language][key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
}

export function useT(): Translate {
  return translator(useSession((state) => state.language));
}

export function useLocale(): string {
  return locales[useSession((state) => state.language)];
}
