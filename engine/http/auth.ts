import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EngineError } from '../domain/errors';
import { grants, type Caller, type Scope } from '../domain/scopes';
import type { Repos } from '../store/port';

/** `X-SVC-API-Key` (spec §5) with the scope each route declares in its config (contract §8). */

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * the scope a route needs, or several of which any one will do (the first is the contract's, named in
     * `details.requiredScope` when none is held); routes without one are public
     */
    scope?: Scope | readonly Scope[];
  }
  interface FastifyRequest {
    apiKeyId?: string;
    apiKeyScopes?: readonly string[];
    /** the authenticated key, with the owner its carts and orders are recorded under */
    caller?: Caller;
  }
}

export const API_KEY_HEADER = 'x-svc-api-key';

export function installAuth(app: FastifyInstance, keys: Repos['keys'], now: () => number = Date.now): void {
  app.addHook('onRequest', async (request) => {
    const needed = request.routeOptions.config.scope;
    if (needed === undefined) return;
    const header = request.headers[API_KEY_HEADER];
    const key = typeof header === 'string' ? await keys.authenticate(header, now()) : undefined;
    if (!key) throw new EngineError('INVALID_API_KEY');
    const anyOf: readonly Scope[] = typeof needed === 'string' ? [needed] : needed;
    if (!anyOf.some((scope) => grants(key.scopes, scope))) throw new EngineError('INSUFFICIENT_PERMISSIONS', { details: { requiredScope: anyOf[0] } });
    request.apiKeyId = key.id;
    request.apiKeyScopes = key.scopes;
    request.caller = { keyId: key.id, owner: key.owner, scopes: key.scopes };
  });
}

/** The caller of a route that declares a scope (the hook above has authenticated it). */
export function callerOf(request: FastifyRequest): Caller {
  if (request.caller === undefined) throw new EngineError('INVALID_API_KEY');
  return request.caller;
}
