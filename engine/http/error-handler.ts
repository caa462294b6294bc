import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EngineError, type ErrorCode } from '../domain/errors';
import { messageFor } from './i18n';
import { languageOf } from './language';
import { isLegacyPath } from '../legacy-v1/http/deprecation';
import { sendV1Error } from '../legacy-v1/http/errors';

/**
 * Every failure leaves in the envelope of spec §7.1, framework failures included. Expected failures are
 * EngineErrors; schema, parser and size errors of Fastify are translated; anything else is logged with
 * the request's context and answered 500 INTERNAL_ERROR with nothing of its internals.
 */

export function errorBody(error: EngineError, request: FastifyRequest) {
  const language = languageOf(request);
  const values = { ...error.details, ...(error.param !== undefined && { param: error.param }) };
  return {
    error: {
      type: error.type,
      code: error.code,
      message: messageFor(error.code, language, values),
      ...(error.param !== undefined && { param: error.param }),
      ...(error.details !== undefined && { details: error.details }),
    },
  };
}

export function sendError(reply: FastifyReply, error: EngineError): FastifyReply {
  const retryAfter = error.details?.retryAfter;
  if (error.code === 'RATE_LIMIT_EXCEEDED' && typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
  if (isLegacyPath(reply.request.url)) return sendV1Error(reply, error);
  return reply.code(error.status).header('content-language', languageOf(reply.request)).send(errorBody(error, reply.request));
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | EngineError, request, reply) => {
    const known = error instanceof EngineError ? error : translate(error, request);
    if (!known) {
      request.log.error({ err: error }, 'unexpected error');
      return sendError(reply, new EngineError('INTERNAL_ERROR'));
    }
    if (known.status >= 500) request.log.error({ err: error }, known.code);
    return sendError(reply, known);
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, new EngineError('RESOURCE_NOT_FOUND', { details: { path: request.url.split('?')[0] } })));
}

const FRAMEWORK_CODES: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'MALFORMED_REQUEST',
  FST_ERR_BAD_URL: 'MALFORMED_REQUEST',
};

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

function translate(error: FastifyError, request: FastifyRequest): EngineError | undefined {
  if (error.validation) return fromValidation(error.validation, error.validationContext);
  const code = FRAMEWORK_CODES[error.code];
  if (code === 'BODY_TOO_LARGE') return new EngineError(code, { details: { limit: request.routeOptions.bodyLimit } });
  if (code) return new EngineError(code);
  if (error instanceof SyntaxError && error.statusCode === 400) return new EngineError('MALFORMED_JSON');
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new EngineError('MALFORMED_REQUEST', { details: { reason: error.code } });
  return undefined;
}

function fromValidation(errors: readonly AjvError[], context: string | undefined): EngineError {
  const [first] = errors;
  if (!first) return new EngineError('INVALID_FIELD_VALUE');
  const base = jsonPath(first.instancePath);
  const join = (name: unknown) => (base ? `${base}.${String(name)}` : String(name));
  const where = context === 'body' ? {} : { location: context };
  if (first.keyword === 'required') {
    return new EngineError('MISSING_REQUIRED_FIELD', { param: join(first.params.missingProperty), details: where });
  }
  if (first.keyword === 'additionalProperties') {
    return new EngineError('INVALID_FIELD_VALUE', { param: join(first.params.additionalProperty), details: { ...where, reason: 'unknown_field' } });
  }
  return new EngineError('INVALID_FIELD_VALUE', {
    ...(base && { param: base }),
    details: { ...where, reason: first.keyword, ...first.params },
  });
}

/** "/items/2/quantity" → "items[2].quantity" */
export function jsonPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}
