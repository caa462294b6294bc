import type { FastifyReply } from 'fastify';
import type { EngineError } from '../../domain/errors';
import type { V1ErrorBody } from '../../contract/v1';
import { v1Status } from '../../use-cases/v1/answer-to-v1';
import { messageFor, pickLanguage } from '../i18n';
import { DEPRECATION_HEADERS } from './deprecation';

/**
 * `{ errorCode, message, status }` of contract §11: the v3 code, its localized message, the v1 status. The
 * deprecation headers are set here too, for errors the router answers before any hook runs (bad URLs).
 */
export function sendV1Error(reply: FastifyReply, error: EngineError): FastifyReply {
  const language = pickLanguage(reply.request.headers['accept-language']);
  const values = { ...error.details, ...(error.param !== undefined && { param: error.param }) };
  const status = v1Status(error.code);
  const body: V1ErrorBody = { errorCode: error.code, message: messageFor(error.code, language, values), status };
  return reply.code(status).headers(DEPRECATION_HEADERS).header('content-language', language).send(body);
}
