import type { FastifyReply } from 'fastify';
import type { EngineError } from '../../domain/errors';
import type { V1ErrorBody } from '../contract';
import { v1Status } from '../answer-to-v1';
import { messageFor, type Language } from '../../http/i18n';
import { languageOf } from '../../http/language';
import { DEPRECATION_HEADERS } from './deprecation';

/**
 * `{ errorCode, message, status }` of contract §11: the v3 code, its localized message, the v1 status. The
 * deprecation headers are set here too, for errors the router answers before any hook runs (bad URLs).
 */
export function sendV1Error(reply: FastifyReply, error: EngineError): FastifyReply {
  const language = languageOf(reply.request);
  const values = { ...error.details, ...(error.param !== undefined && { param: error.param }) };
  const status = v1Status(error.code);
  const message = error.code === 'INVALID_API_KEY' ? CHANNEL_REFUSED[language] : messageFor(error.code, language, values);
  const body: V1ErrorBody = { errorCode: error.code, message, status };
  return reply.code(status).headers(DEPRECATION_HEADERS).header('content-language', language).send(body);
}

/**
 * v1 has no API key: its 401 keeps the v3 code (contract §11: `errorCode` is the v3 code) but says what is
 * wrong in v1's terms.
 */
const CHANNEL_REFUSED: Record<Language, string> = {
  en: 'The channel is missing, unknown or revoked, or the checksum does not match the request.',
  de: 'Der Kanal fehlt, ist unbekannt oder widerrufen, oder die Prüfsumme passt nicht zur Anfrage.',
  fr: 'Le canal est absent, inconnu ou révoqué, ou la somme de contrôle ne correspond pas à la requête.',
};
