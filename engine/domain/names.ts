/**
 * Catalog names may carry translations (contract §2, issue #14): a plain string, or one string per language
 * { "en": …, "de": …, "fr": … }. The engine stores a default — English, else German, else French — and answers
 * the read endpoints in the request's language (Accept-Language), falling back to that default.
 */
export type Translated = string | Readonly<Partial<Record<NameLanguage, string>>>;
export type NameLanguage = 'en' | 'de' | 'fr';
export const NAME_LANGUAGES: readonly NameLanguage[] = ['en', 'de', 'fr'];

export function defaultName(name: Translated): string {
  if (typeof name === 'string') return name;
  return name.en ?? NAME_LANGUAGES.map((language) => name[language]).find((value) => value !== undefined) ?? '';
}

export function translations(name: Translated): Partial<Record<NameLanguage, string>> | undefined {
  return typeof name === 'string' ? undefined : { ...name };
}

/** The name in `language` if the catalog has it, else the stored default. */
export function nameIn(stored: string, names: Partial<Record<NameLanguage, string>> | undefined, language: NameLanguage): string {
  return names?.[language] ?? stored;
}
