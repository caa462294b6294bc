import { scaleOf } from '../domain/currencies';
import type { MoneyBody } from '../contract/common';
import type { V1Money } from './contract';
import { EXTRA_PREFIX } from '../catalog/references';

/**
 * The mapping of spec §9.1 (flow) and §9.2 (fields), written once. The two direction modules
 * (request-to-v3.ts, answer-to-v1.ts) use the converters below and nothing else of v1's; docs/v1.md
 * prints these tables as `renderMappingTables()` renders them (a test keeps the two equal).
 */

export const FLOW_MAPPING = [
  {
    purpose: 'Create / update',
    v1: '`PATCH /api/v1/baskets` (client-chosen reference, upsert)',
    v3: '`POST /api/v3/carts`; when the tickets are unchanged the cart stays and only its extras change; when they change, a new cart with `previousCartId`, the extras added and the vouchers carried over',
  },
  { purpose: 'Read', v1: '`GET /api/v1/baskets/{reference}`', v3: '`GET /api/v3/carts/{cartId}`' },
  { purpose: 'Add items', v1: 're-send whole basket', v3: '`POST /api/v3/carts/{cartId}/items` (extras only)' },
  { purpose: 'Change quantity', v1: 're-send whole basket', v3: '`PATCH /api/v3/carts/{cartId}/items/{itemId}` (extras only)' },
  { purpose: 'Apply discount', v1: '`PATCH /api/v1/baskets/{reference}/applyPromotion`', v3: '`POST /api/v3/carts/{cartId}/vouchers`' },
  {
    purpose: 'Remove item',
    v1: '`DELETE /api/v1/baskets/{reference}/reservations/{reservationId}`',
    v3: '`DELETE /api/v3/carts/{cartId}/items/{itemId}` (extras; a ticket answers 400 `ITEM_NOT_MODIFIABLE`); new cart to change seats',
  },
  { purpose: 'Empty', v1: '`PATCH /api/v1/baskets/{reference}/clear`', v3: '`DELETE /api/v3/carts/{cartId}`' },
  { purpose: 'Auth', v1: '`X-Channel-Id` plus `X-Checksum`', v3: 'API key header `X-SVC-API-Key`' },
] as const;

export const FIELD_MAPPING = [
  { v1: '`reservations[].productId`', v3: '`items[].occurrenceId` (an extra takes its cart\'s occurrence)' },
  { v1: '`aggregateReference` `"<inventoryItemId>:<priceOptionId>"`', v3: '`inventoryItemId` plus `priceOptionId`' },
  { v1: '`aggregateReference` `"extra:<extraId>"`', v3: 'the extra line\'s `extraId`' },
  { v1: '`reservations[].quantity`', v3: '`items[].quantity`' },
  { v1: '`reservations[].reservationId`', v3: '`items[].id`' },
  { v1: '`reservations[].price`, `.total`', v3: '`items[].unitPrice`, `.total`' },
  { v1: '`promotions[]`', v3: '`vouchers[].code`' },
  { v1: '`total`', v3: '`total`' },
  { v1: '`cartId`', v3: '`id`' },
  { v1: 'money `{value, currency, decimalPlaces}`', v3: '`{amount, currency}`' },
  { v1: 'no expiry in response', v3: '`expiresAt` (UTC) on the cart' },
  { v1: 'error `{errorCode, message, status}`', v3: '`{error: {type, code, message}}`; `errorCode` is the v3 code; 410 `CART_EXPIRED` answers 404' },
] as const;

/** The two tables as Markdown, for the migration guide and docs/v1.md. */
export function renderMappingTables(): string {
  const flow = FLOW_MAPPING.map((row) => `| ${row.purpose} | ${row.v1} | ${row.v3} |`);
  const fields = FIELD_MAPPING.map((row) => `| ${row.v1} | ${row.v3} |`);
  return ['| Purpose | v1 | v3 (what the facade calls) |', '|---|---|---|', ...flow, '', '| v1 | v3 |', '|---|---|', ...fields].join('\n');
}

// --- converters: every field of FIELD_MAPPING that changes shape -----------------------------------

export { EXTRA_PREFIX, extraReference, ticketReference } from '../catalog/references';

export function toV1Money(money: MoneyBody): V1Money {
  return { value: money.amount, currency: money.currency, decimalPlaces: scaleOf(money.currency) };
}

export function toV3Money(money: V1Money): MoneyBody {
  return { amount: money.value, currency: money.currency };
}

export type ParsedReference =
  | { readonly kind: 'extra'; readonly extraId: string }
  | { readonly kind: 'ticket'; readonly splits: readonly { readonly inventoryItemId: string; readonly priceOptionId: string }[] };

/**
 * An aggregateReference read back into v3 ids. Ids may themselves hold ':', so a ticket reference lists
 * every split into two non-empty ids, leftmost first; the caller keeps the one the catalog knows.
 * Undefined: not a reference at all (no ':' with ids on both sides).
 */
export function parseReference(reference: string): ParsedReference | undefined {
  if (reference.startsWith(EXTRA_PREFIX)) {
    const extraId = reference.slice(EXTRA_PREFIX.length);
    return extraId ? { kind: 'extra', extraId } : undefined;
  }
  const splits = [];
  for (let at = reference.indexOf(':'); at !== -1; at = reference.indexOf(':', at + 1)) {
    const inventoryItemId = reference.slice(0, at);
    const priceOptionId = reference.slice(at + 1);
    if (inventoryItemId && priceOptionId) splits.push({ inventoryItemId, priceOptionId });
  }
  return splits.length > 0 ? { kind: 'ticket', splits } : undefined;
}
