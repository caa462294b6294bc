import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { LIMITS } from '../domain/limits';
import { API_KEY_HEADER } from './auth';

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
  and the time left; and whether the upstream refuses its sync key.`;

export const openApiOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: { title: 'Kassa ticketing v3', version: '3.0.0', description },
    components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } } },
  },
  // Each route's scope lives once, in its config; the document derives security and the scope from it.
  transform: ({ schema, url, route }) => {
    const scope = route.config?.scope;
    if (!scope) return { schema, url };
    return { schema: { ...schema, security: [{ apiKey: [] }], 'x-required-scope': scope }, url };
  },
};

export { swagger };
