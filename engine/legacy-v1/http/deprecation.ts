import type { FastifyInstance } from 'fastify';
import type { Repos } from '../../store/port';

/**
 * Every answer under /api/v1 — baskets, errors, unknown routes, framework errors — says that v1 is
 * deprecated and when it goes, and links the migration guide: `Deprecation` (RFC 9745, a structured-field
 * date), `Sunset` (RFC 8594, an HTTP date) and `Link` with rel `deprecation` (RFC 9745) and `sunset`
 * (RFC 8594). Each call is also counted per channel and route for GET /api/v3/legacy/usage.
 */

/** Paths of the legacy v1 interface: every answer under them, framework errors included, is in v1's shape. */
export function isLegacyPath(url: string): boolean {
  return url === '/api/v1' || url.startsWith('/api/v1/') || url.startsWith('/api/v1?');
}

/** v1 counts as deprecated since Kassa's first release (v3 replaced it from the start). */
export const DEPRECATED_AT = '2026-01-01T00:00:00Z';
/** After this instant v1 may be removed: a venue gets a full season to move its integrations to v3. */
export const SUNSET_AT = '2027-12-31T23:59:59Z';
/** The migration guide, served by the engine itself (docs/v1.md says the same for people reading the repository). */
export const MIGRATION_GUIDE_PATH = '/api/v1/migration-guide';

export const DEPRECATION_HEADERS = {
  deprecation: `@${Date.parse(DEPRECATED_AT) / 1000}`,
  sunset: new Date(SUNSET_AT).toUTCString(),
  link: `<${MIGRATION_GUIDE_PATH}>; rel="deprecation"; type="text/markdown", <${MIGRATION_GUIDE_PATH}>; rel="sunset"; type="text/markdown"`,
} as const;

export function installLegacyHeaders(app: FastifyInstance, baskets: Repos['baskets'], now: () => number): void {
  app.addHook('onSend', async (request, reply) => {
    if (isLegacyPath(request.url)) reply.headers(DEPRECATION_HEADERS);
  });
  app.addHook('onResponse', async (request, reply) => {
    if (!isLegacyPath(request.url)) return;
    const pattern = request.routeOptions.url;
    const route = `${request.method} ${pattern === undefined ? '(unmatched)' : pattern}`;
    try {
      await baskets.countCall(request.channelId ?? '', route, reply.statusCode >= 400, now());
    } catch (error) {
      // The answer is already sent; a counter that could not be written must not hide, nor fail the call.
      request.log.error({ err: error }, 'could not count a v1 call');
    }
  });
}
