import type { FastifyInstance } from 'fastify';
import { EngineError } from '../domain/errors';
import { grants, type Scope } from '../domain/scopes';
import type { KeyRepo } from '../store/key-repo';

/** `X-SVC-API-Key` (spec §5) with the scope each route declares in its config (contract §8). */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the scope a route needs; routes without one are public */
    scope?: Scope;
  }
  interface FastifyRequest {
    apiKeyId?: string;
    apiKeyScopes?: readonly string[];
  }
}

export const API_KEY_HEADER = 'x-svc-api-key';

export function installAuth(app: FastifyInstance, keys: KeyRepo): void {
  app.addHook('onRequest', async (request) => {
    const needed = request.routeOptions.config.scope;
    if (needed === undefined) return;
    const header = request.headers[API_KEY_HEADER];
    const key = typeof header === 'string' ? keys.authenticate(header) : undefined;
    if (!key) throw new EngineError('INVALID_API_KEY');
    if (!grants(key.scopes, needed)) throw new EngineError('INSUFFICIENT_PERMISSIONS', { details: { requiredScope: needed } });
    request.apiKeyId = key.id;
    request.apiKeyScopes = key.scopes;
  });
}
