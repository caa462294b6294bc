import type { FastifyInstance } from 'fastify';
import { EngineError } from '../domain/errors';
import { sendError } from './error-handler';

/**
 * A localhost API is reachable from any page the kiosk's browser opens. Against DNS rebinding, a request
 * must name an allowed host in `Host`; against cross-site requests, an `Origin`, when sent, must be one of
 * ours. No CORS headers are ever sent, so browsers keep other origins from reading any answer.
 */
export interface GuardOptions {
  /** host names accepted besides the loopback names (for an engine serving a venue LAN) */
  readonly allowedHosts: readonly string[];
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export function installGuard(app: FastifyInstance, options: GuardOptions): void {
  const names = new Set([...LOOPBACK_NAMES, ...options.allowedHosts].map((name) => name.toLowerCase()));
  const hostAllowed = (host: string | undefined): boolean => {
    if (!host) return false;
    const port = app.server.address();
    const portText = typeof port === 'object' && port ? String(port.port) : '';
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.toLowerCase());
    return match !== null && names.has(match[1] ?? '') && (match[2] === undefined || match[2] === portText);
  };

  app.addHook('onRequest', async (request, reply) => {
    if (!hostAllowed(request.headers.host)) return sendError(reply, new EngineError('HOST_NOT_ALLOWED'));
    const origin = request.headers.origin;
    if (origin !== undefined) {
      const parsed = URL.canParse(origin) ? new URL(origin) : undefined;
      if (!parsed || parsed.protocol !== 'http:' || !hostAllowed(parsed.host)) return sendError(reply, new EngineError('ORIGIN_NOT_ALLOWED'));
    }
  });
}
