import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pickLanguage, type Language } from './i18n';

declare module 'fastify' {
  interface FastifyRequest {
    /** The answer's language, negotiated once from Accept-Language (en, de or fr; en when none fits). */
    readonly language: Language;
  }
}

/** What each request negotiated, so that routes, localization and the error handler ask Negotiator only once. */
const negotiated = new WeakMap<FastifyRequest, Language>();

/**
 * The language a request negotiated, computed once. The error handler asks through this function: the requests
 * Fastify hands to `frameworkErrors` (bad URLs, before routing) are not decorated.
 */
export function languageOf(request: FastifyRequest): Language {
  let language = negotiated.get(request);
  if (language === undefined) {
    language = pickLanguage(request.headers['accept-language']);
    negotiated.set(request, language);
  }
  return language;
}

/**
 * `request.language` on every request (issue #23): routes hand it to the use cases that localize instead of each
 * reading Accept-Language itself. A getter rather than a hook, so that it is there for errors raised before any
 * hook runs too (the body parser's, an earlier hook's).
 */
export function installRequestLanguage(app: FastifyInstance): void {
  app.decorateRequest('language', {
    getter(this: FastifyRequest): Language {
      return languageOf(this);
    },
  });
}
