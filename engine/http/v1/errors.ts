import type { FastifyReply } from 'fastify';
import type { EngineError } from '../../domain/errors';
import type { V1ErrorBody } from '../../contract/v1';
import { v1Status } from '../../use-cases/v1/answer-to-v1';
import { messageFor, pickLanguage } from '../i18n';

/** Paths of the legacy v1 interface: every answer under them, framework errors included, is in v1's shape. */
export function isLegacyPath(url: string): boolean {
  return url === '/api/v1' || url.startsWith('/api/v1/') || url.startsWith('/api/v1?');
}

/** `{ errorCode, message, status }` of contract §11: the v3 code, its localized message, the v1 status. */
export function sendV1Error(reply: FastifyReply, error: EngineError): FastifyReply {
  const language = pickLanguage(reply.request.headers['accept-language']);
  const values = { ...error.details, ...(error.param !== undefined && { param: error.param }) };
  const status = v1Status(error.code);
  const body: V1ErrorBody = { errorCode: error.code, message: messageFor(error.code, language, values), status };
  return reply.code(status).header('content-language', language).send(body);
}
