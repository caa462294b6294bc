import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { EngineError } from '../../domain/errors';

/**
 * The built UI on the engine's own origin, and its start-up config. The config carries an API key, so it
 * is answered to same-origin requests from this machine only: the Host/Origin guard refuses other sites and
 * rebound names, no CORS header lets another origin read it, a cross-site fetch (Sec-Fetch-Site) is refused
 * outright, and so is any client that is not on loopback.
 */
export interface UiConfig {
  /** the kiosk's key (ROLE_SCOPES.kiosk): card sales only; the box office signs in for its own (staff-sessions.ts) */
  apiKey: string;
  /** the gate screen's key (ROLE_SCOPES.gate, `?mode=gate`): the catalog, check-ins, the sync status */
  gateKey: string;
  apiBase: string;
  testTokens: readonly string[];
  /** POST /api/v3/staff-sessions is there: the box office asks for the staff PIN */
  staffSignIn: boolean;
  /**
   * `--require-shift` (contract §14): cash needs an open shift here, so the box office asks for the opening float
   * before the first cash sale (the engine refuses it otherwise: 409 SHIFT_NOT_OPEN)
   */
  requireShift: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export const UI_CSP = [
  "default-src 'self'",
  // 'wasm-unsafe-eval': the gate's barcode decoder (ZXing-C++ in WebAssembly, served from 'self'); no eval of scripts
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  // the catalog's pictures (engine/domain/image-url.ts): https: and data:image/ URLs only
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const uiRoutes: FastifyPluginAsync<{ root: string; config: UiConfig }> = async (app, { root, config }) => {
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    index: ['index.html'],
    setHeaders(reply, path) {
      if (path.endsWith('.html')) {
        reply.header('content-security-policy', UI_CSP);
        reply.header('cache-control', 'no-cache');
      }
    },
  });

  app.get('/ui-config.json', { schema: { hide: true } }, async (request, reply) => {
    assertLocalPage(request);
    return reply.header('cache-control', 'no-store').send(config);
  });
};

/**
 * What hands out a key answers only this machine's own page: an engine serving a venue LAN never hands its UI
 * key to another machine (they bring their own key), and a cross-site fetch (Sec-Fetch-Site) is refused outright.
 */
export function assertLocalPage(request: FastifyRequest): void {
  if (!LOOPBACK.has(request.socket.remoteAddress ?? '')) throw new EngineError('ORIGIN_NOT_ALLOWED');
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') throw new EngineError('ORIGIN_NOT_ALLOWED');
}
