import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { ErrorBody } from '../contract/common';
import { LIMITS } from '../domain/limits';
import { API_KEY_HEADER } from './auth';
import { CHANNEL_HEADER, CHECKSUM_HEADER } from '../legacy-v1/http/channel-auth';
import { MIGRATION_GUIDE_PATH, SUNSET_AT } from '../legacy-v1/http/deprecation';

const description = `The ticketing v3 cart interface served by the Kassa engine.

Decisions where the spec is silent (see also docs/decisions.md):
- Limits: at most ${LIMITS.maxItemsPerRequest} items per request, quantities from 1 to ${LIMITS.maxQuantity} per line,
  amounts within ±${LIMITS.maxAmount} minor units. Extras are capped at the catalog's maxQuantity per cart.
  The amount limit holds for every price, converted price, line and total, in every currency: a catalog whose price,
  converted at one of its rates, passes it is refused (400 INVALID_FIELD_VALUE reason converted_price_out_of_range,
  \`param\` the price); a cart operation that would take a total past it is 400 INVALID_FIELD_VALUE reason
  total_out_of_range (\`param\` items, quantity or currency). So every cart the engine builds can be paid.
  At most ${LIMITS.maxTicketsPerOrder} tickets per cart (so per order: the sum of its quantities), on POST /carts, v1 baskets
  and imports alike: 400 INVALID_FIELD_VALUE at the quantity that passes it, details.maxTicketsPerOrder.
- Ids of areas, price options and inventory items are unique within their occurrence.
- An unknown occurrence, inventory item or extra in a request body is 400 INVALID_FIELD_VALUE with \`param\` naming it.
- Voucher codes match case-insensitively; several vouchers may share a cart, their discounts together never exceed the ticket subtotal.
- \`previousCartId\` is released inside the same transaction before the new cart takes its stock, so seats can carry over.
- \`admin\` grants every scope. Errors beyond the spec: 413 BODY_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE,
  400 MALFORMED_REQUEST, 403 HOST_NOT_ALLOWED and ORIGIN_NOT_ALLOWED (DNS-rebinding and cross-site protection).
- A Kassa engine is also a hub for syncing terminals: GET /capabilities (public) lists its extensions
  (\`orders.import-batch\`), and POST /orders/import takes a terminal's whole orders, up to 100 per request, each
  created in one transaction or refused whole, replayed for good by its idempotencyKey or reference from the same key
  (a reference another key imported first is 409 IMPORT_REFERENCE_TAKEN).
- Ownership: a key reads, changes and checks out only its own carts, and reads, lists, prints and cancels only its own
  orders (another key's answer 404 RESOURCE_NOT_FOUND, as unknown ones do), unless it holds \`orders:any\` (every order;
  \`admin\` has it). \`orders:checkout\` is card checkout of its own carts and reading and printing its own orders (a
  kiosk); \`sync:status\` reads the sync status only.
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

/**
 * The operationId of every operation, keyed by "METHOD /path" as the document lists it: the method names a
 * generated client gets. ONE table for every route file; a route added without its entry fails
 * test/api/openapi.test.ts (and the Redocly lint in openapi-lint.test.ts).
 */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  'GET /api/v3/health': 'getHealth',
  'GET /api/v3/capabilities': 'getCapabilities',
  'PUT /api/v3/catalog': 'importCatalog',
  'GET /api/v3/catalog': 'exportCatalog',
  'GET /api/v3/locations': 'listLocations',
  'GET /api/v3/events': 'listEvents',
  'GET /api/v3/occurrences/{occurrenceId}/inventory': 'getOccurrenceInventory',
  'GET /api/v3/occurrences/{occurrenceId}/availability': 'getOccurrenceAvailability',
  'POST /api/v3/carts': 'createCart',
  'GET /api/v3/carts/{cartId}': 'getCart',
  'PATCH /api/v3/carts/{cartId}': 'switchCartCurrency',
  'DELETE /api/v3/carts/{cartId}': 'deleteCart',
  'POST /api/v3/carts/{cartId}/items': 'addCartExtras',
  'PATCH /api/v3/carts/{cartId}/items/{itemId}': 'changeCartExtraQuantity',
  'DELETE /api/v3/carts/{cartId}/items/{itemId}': 'removeCartExtra',
  'POST /api/v3/carts/{cartId}/vouchers': 'applyCartVoucher',
  'DELETE /api/v3/carts/{cartId}/vouchers/{code}': 'removeCartVoucher',
  'POST /api/v3/carts/{cartId}/gift-card-quote': 'quoteGiftCards',
  'GET /api/v3/gift-cards/{code}': 'getGiftCard',
  'POST /api/v3/hub/gift-card-holds': 'holdGiftCards',
  'POST /api/v3/hub/gift-card-holds/{reference}/release': 'releaseGiftCardHolds',
  'POST /api/v3/checkins': 'checkIn',
  'GET /api/v3/occurrences/{id}/checkins': 'getCheckinCounts',
  'POST /api/v3/hub/journal': 'storeTerminalJournal',
  'GET /api/v3/hub/journal': 'listTerminalJournal',
  'POST /api/v3/hub/ticket-keys': 'learnTerminalTicketKeys',
  'POST /api/v3/hub/checkins': 'checkInForTerminal',
  'POST /api/v3/hub/checkins/import': 'importTerminalCheckins',
  'GET /api/v3/hub/occurrences/{id}/checkins': 'getCheckinCountsForTerminal',
  'POST /api/v3/orders': 'placeOrder',
  'GET /api/v3/orders': 'listOrders',
  'GET /api/v3/orders/summary': 'summarizeOrders',
  'GET /api/v3/journal': 'listJournal',
  'GET /api/v3/journal/verify': 'verifyJournal',
  'GET /api/v3/ticket-keys': 'listTicketKeys',
  'GET /api/v3/ticket-revocations': 'listTicketRevocations',
  'GET /api/v3/orders/{orderId}': 'getOrder',
  'POST /api/v3/orders/{orderId}/cancel': 'cancelOrder',
  'POST /api/v3/orders/import': 'importOrders',
  'POST /api/v3/orders/{orderId}/print': 'printOrder',
  'GET /api/v3/orders/{orderId}/tickets.pdf': 'getOrderTicketsPdf',
  'GET /api/v3/print-jobs': 'listPrintJobs',
  'GET /api/v3/print-jobs/{jobId}': 'getPrintJob',
  'GET /api/v3/printers': 'listPrinters',
  'POST /api/v3/shifts': 'openShift',
  'GET /api/v3/shifts': 'listShifts',
  'GET /api/v3/shifts/current': 'getCurrentShift',
  'GET /api/v3/shifts/{shiftId}': 'getShift',
  'POST /api/v3/shifts/{shiftId}/cash-movements': 'addCashMovement',
  'GET /api/v3/shifts/{shiftId}/report': 'getShiftReport',
  'POST /api/v3/shifts/{shiftId}/close': 'closeShift',
  'GET /api/v3/shifts/{shiftId}/export': 'exportShift',
  'POST /api/v3/shifts/{shiftId}/print': 'printShiftReport',
  'GET /api/v3/allocations': 'listAllocations',
  'POST /api/v3/allocations': 'changeAllocations',
  'GET /api/v3/sync/status': 'getSyncStatus',
  'POST /api/v3/sync/conflicts/{id}/retry': 'retrySyncConflict',
  'POST /api/v3/sync/conflicts/{id}/resolve': 'resolveSyncConflict',
  'POST /api/v3/sync/checkin-conflicts/{id}/resolve': 'resolveCheckinConflict',
  'GET /api/v3/sync/holdings': 'listSyncHoldings',
  'POST /api/v3/sync/holdings/give-back': 'giveBackSyncHoldings',
  'POST /api/v3/staff-sessions': 'createStaffSession',
  'DELETE /api/v3/staff-sessions': 'deleteStaffSession',
  'GET /api/v3/legacy/usage': 'getLegacyUsage',
  'PATCH /api/v1/baskets': 'v1UpsertBasket',
  'GET /api/v1/baskets/{reference}': 'v1GetBasket',
  'PATCH /api/v1/baskets/{reference}/applyPromotion': 'v1ApplyPromotion',
  'DELETE /api/v1/baskets/{reference}/reservations/{reservationId}': 'v1RemoveReservation',
  'PATCH /api/v1/baskets/{reference}/clear': 'v1ClearBasket',
  'GET /api/v1/migration-guide': 'getV1MigrationGuide',
  'GET /psp/challenges/{reference}': 'getPaymentChallengePage',
  'POST /psp/challenges/{reference}': 'answerPaymentChallenge',
};

/** Fastify's `/carts/:cartId` as the document writes it, `/carts/{cartId}`. */
const documentPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * Every answer may be a 4xx in the envelope (the guard's 403, 429, 404 …); routes that do not say so get it
 * here, and one that declares no answer at all (the challenge page, HTML) its plain 200.
 */
function withErrorResponses(response: unknown): Record<string, unknown> {
  const declared: Record<string, unknown> = typeof response === 'object' && response !== null
    ? { ...response }
    : { 200: { description: 'success; the body is not described here (the challenge page is HTML)', type: 'null' } };
  const has4xx = Object.keys(declared).some((status) => /^4(xx|XX|\d\d)$/.test(status));
  return has4xx ? declared : { ...declared, '4xx': { description: 'an error in the envelope of spec §7.1', ...ErrorBody } };
}

export const openApiOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: { title: 'Kassa ticketing v3', version: '3.0.0', description, license: { name: 'Proprietary (UNLICENSED)', identifier: 'LicenseRef-Kassa-Proprietary' } },
    // relative: the engine that serves this document (http://127.0.0.1:8787 by default)
    servers: [{ url: '/', description: 'the engine serving this document' }],
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
    const method = typeof route.method === 'string' ? route.method : route.method.join(',');
    const operationId = OPERATION_IDS[`${method} ${documentPath(url)}`];
    const documented = { ...schema, ...(operationId !== undefined && { operationId }), response: withErrorResponses(schema.response) };
    const channelScope = route.config?.channelScope;
    if (channelScope) return { schema: { ...documented, security: [{ v1Channel: [], v1Checksum: [] }], 'x-required-scope': channelScope }, url };
    const scope = route.config?.scope;
    // public on purpose (health, capabilities, the v1 guide, the challenge page): an empty requirement says so
    if (!scope) return { schema: { ...documented, security: [] }, url };
    // a route some narrower scope also opens (auth.ts): the contract's scope first, every accepted one beside it
    const scopes = typeof scope === 'string' ? [scope] : scope;
    return { schema: { ...documented, security: [{ apiKey: [] }], 'x-required-scope': scopes[0], ...(scopes.length > 1 && { 'x-accepted-scopes': scopes }) }, url };
  },
};

export { swagger };
