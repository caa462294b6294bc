import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { LIMITS } from '../domain/limits';
import { API_KEY_HEADER } from './auth';
import { CHANNEL_HEADER, CHECKSUM_HEADER } from './v1/channel-auth';
import { MIGRATION_GUIDE_PATH, SUNSET_AT } from './v1/deprecation';

const description = `The ticketing v3 cart interface served by the Kassa engine.

Decisions where the spec is silent (see also README):
- Limits: at most ${LIMITS.maxItemsPerRequest} items per request, quantities from 1 to ${LIMITS.maxQuantity} per line,
  amounts within ±${LIMITS.maxAmount} minor units. Extras are capped at the catalog's maxQuantity per cart.
- Ids of areas, price options and inventory items are unique within their occurrence.
- An unknown occurrence, inventory item or extra in a request body is 400 INVALID_FIELD_VALUE with \`param\` naming it.
- Voucher codes match case-insensitively; several vouchers may share a cart, their discounts together never exceed the ticket subtotal.
- \`previousCartId\` is released inside the same transaction before the new cart takes its stock, so seats can carry over.
- \`admin\` grants every scope. Errors beyond the spec: 413 BODY_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE,
  400 MALFORMED_REQUEST, 403 HOST_NOT_ALLOWED and ORIGIN_NOT_ALLOWED (DNS-rebinding and cross-site protection).
- A Kassa engine is also a hub for syncing terminals: GET /capabilities (public) lists its extensions
  (\`orders.import-batch\`), and POST /orders/import takes a terminal's whole orders, up to 100 per request, each
  created in one transaction or refused whole, replayed for good by its idempotencyKey or reference.
- A terminal's GET /sync/status reports the backlog: entries waiting, the oldest one's age, the delivery rate
  and the time left; and whether the upstream refuses its sync key.

Legacy v1 (contract §11), deprecated, sunset ${SUNSET_AT}; guide at ${MIGRATION_GUIDE_PATH}:
- \`/api/v1/baskets\` is a facade over the v3 carts: a basket's \`cartId\` is its v3 cart, which \`POST /api/v3/orders\` checks out.
- Auth: \`X-Channel-Id\` and \`X-Checksum\` = lowercase hex HMAC-SHA256 (key: the channel secret) of
  \`METHOD\\npath-with-query\\nbody\`; a replayed checksum over another method, path or body answers 401 INVALID_API_KEY
  (the v3 code; the message speaks of channel and checksum).
  An exact replay is accepted: every v1 write is idempotent.
- Every v1 answer, errors included, carries Deprecation, Sunset and Link; errors are \`{ errorCode, message, status }\`
  with the v3 code; a lapsed, cleared or unknown basket answers 404, an ordered one 409. Rate limit per channel.`;

export const openApiOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: { title: 'Kassa ticketing v3', version: '3.0.0', description },
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER },
        v1Channel: { type: 'apiKey', in: 'header', name: CHANNEL_HEADER, description: 'legacy v1: the channel id' },
        v1Checksum: { type: 'apiKey', in: 'header', name: CHECKSUM_HEADER, description: 'legacy v1: HMAC-SHA256 of METHOD\\npath-with-query\\nbody' },
      },
    },
  },
  // Each route's scope lives once, in its config; the document derives security and the scope from it.
  transform: ({ schema, url, route }) => {
    const channelScope = route.config?.channelScope;
    if (channelScope) return { schema: { ...schema, security: [{ v1Channel: [], v1Checksum: [] }], 'x-required-scope': channelScope }, url };
    const scope = route.config?.scope;
    if (!scope) return { schema, url };
    // a route some narrower scope also opens (auth.ts): the contract's scope first, every accepted one beside it
    const scopes = typeof scope === 'string' ? [scope] : scope;
    return { schema: { ...schema, security: [{ apiKey: [] }], 'x-required-scope': scopes[0], ...(scopes.length > 1 && { 'x-accepted-scopes': scopes }) }, url };
  },
};

export { swagger };
