import Negotiator from 'negotiator';
import type { ErrorCode } from '../domain/errors';
import { de } from './messages/de';
import { en } from './messages/en';
import { fr } from './messages/fr';

/** Error messages by `Accept-Language` (contract §8): English by default, German and French too. */

const catalogues = { en, de, fr } as const;
export type Language = keyof typeof catalogues;
const LANGUAGES: Language[] = ['en', 'de', 'fr'];

export function pickLanguage(acceptLanguage: string | undefined): Language {
  const best = new Negotiator({ headers: { 'accept-language': acceptLanguage ?? 'en' } }).language(LANGUAGES);
  return LANGUAGES.find((language) => language === best) ?? 'en';
}

/** What a placeholder says when the error names no field: the request body as a whole. */
const WHOLE_BODY: Record<Language, string> = { en: 'the request body', de: 'Anfrageinhalt', fr: 'corps de la requête' };

/** The message for `code`, with `{name}` placeholders filled from `values`. */
export function messageFor(code: ErrorCode, language: Language, values: Readonly<Record<string, unknown>>): string {
  return catalogues[language][code].replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : WHOLE_BODY[language];
  });
}
