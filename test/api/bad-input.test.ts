import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { CatalogDocument } from '../../engine/contract/catalog';
import { startTestEngine, type ApiResponse, type ErrorEnvelope, type TestEngine } from '../helpers/engine';

/**
 * Bad input against the real HTTP server: wrong types (never coerced), missing and unknown fields, nulls,
 * empty arrays, out-of-range numbers, huge strings, broken JSON, wrong content types, oversized bodies,
 * prototype keys, deep nesting, undecodable path parameters, unknown routes. Every answer is a 4xx in the
 * exact envelope of spec §7.1 with the code of contract §6 and `param` as a JSON path; afterwards the
 * engine still sells and not one seat was lost.
 */

/** spec §7.2; 413 and 415 have no row there, the engine files them under INVALID_REQUEST_ERROR (errors.ts). */
const TYPE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_REQUEST_ERROR',
  401: 'AUTHENTICATION_ERROR',
  403: 'PERMISSION_ERROR',
  404: 'NOT_FOUND_ERROR',
  409: 'CONFLICT_ERROR',
  410: 'RESOURCE_GONE_ERROR',
  413: 'INVALID_REQUEST_ERROR',
  415: 'INVALID_REQUEST_ERROR',
};

const ENVELOPE_FIELDS = ['code', 'details', 'message', 'param', 'type'];

/** The exact error envelope: only `error`, only the fields of §7.1, the type of the status, `param` as given (undefined: absent). */
function expectError(response: ApiResponse, status: number, code: string, param: string | undefined): void {
  const seen = { status: response.status, code: (response.body as Partial<ErrorEnvelope> | undefined)?.error?.code };
  expect(seen, `answered ${JSON.stringify(response.body)?.slice(0, 300)}`).toEqual({ status, code });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = response.body as ErrorEnvelope;
  expect(Object.keys(body)).toEqual(['error']);
  expect(ENVELOPE_FIELDS).toEqual(expect.arrayContaining(Object.keys(body.error)));
  expect(body.error.type).toBe(TYPE_OF_STATUS[status]);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(body.error.param).toBe(param);
  if (body.error.details !== undefined) {
    expect(typeof body.error.details).toBe('object');
    expect(Array.isArray(body.error.details)).toBe(false);
  }
}

const OCCURRENCE = 'brass-2027-03-12';
const ITEM = { occurrenceId: OCCURRENCE, inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 };
const ITEM_JSON = JSON.stringify(ITEM);
const itemWith = (changes: Record<string, unknown>) => ({ ...ITEM, ...changes });
const itemWithout = (field: keyof typeof ITEM) => Object.fromEntries(Object.entries(ITEM).filter(([name]) => name !== field));

type Json = Record<string, unknown>;

/** a catalog document that passes the schema (own ids, so a wrongly accepted import would show in /events), with handles on its parts */
function catalogParts() {
  const price: Json = { amount: 1000, currency: 'EUR' };
  const item: Json = { id: 'floor', capacity: 10 };
  const area: Json = { id: 'floor', name: 'Floor', seating: 'general', priceOptions: [{ id: 'adult', name: 'Adult', price }], inventoryItems: [item] };
  const occurrence: Json = { id: 'bad-occurrence', startsAt: '2027-01-01T19:00:00Z', onSale: true, areas: [area] };
  const event: Json = { id: 'bad-event', name: 'Bad event', locationId: 'bad-venue', kind: 'ticket', occurrences: [occurrence] };
  const doc: Json = {
    locations: [{ id: 'bad-venue', name: 'Bad venue', currencies: ['EUR'] }],
    exchangeRates: [{ from: 'EUR', to: 'USD', rate: '1.08' }],
    events: [event],
    vouchers: [{ code: 'BAD10', percentOff: 10 }],
  };
  return { doc, event, occurrence, area, item, price };
}
const catalogDoc = (): Json => catalogParts().doc;
/** the valid document with one defect put in by `edit` */
function catalogWith(edit: (parts: ReturnType<typeof catalogParts>) => void): Json {
  const parts = catalogParts();
  edit(parts);
  return parts.doc;
}
const AREA = 'events[0].occurrences[0].areas[0]';

interface Case {
  name: string;
  method: string;
  /** `:cart` is this file's live cart, `:extra` its extra line, `:admission` its admission line */
  path: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  status: number;
  code: string;
  param?: string;
}

const BIG = 'x'.repeat(300 * 1024);
const deepArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

const createCartCases: Case[] = [
  // wrong types: "2" is a string, never coerced to 2
  { name: 'quantity "2"', method: 'POST', path: '/carts', body: { items: [itemWith({ quantity: '2' })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity true', method: 'POST', path: '/carts', body: { items: [itemWith({ quantity: true })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity [1]', method: 'POST', path: '/carts', body: { items: [itemWith({ quantity: [1] })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'occurrenceId 123', method: 'POST', path: '/carts', body: { items: [itemWith({ occurrenceId: 123 })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].occurrenceId' },
  { name: 'priceOptionId {}', method: 'POST', path: '/carts', body: { items: [itemWith({ priceOptionId: {} })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].priceOptionId' },
  { name: 'currency 978', method: 'POST', path: '/carts', body: { items: [ITEM], currency: 978 }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'currency' },
  { name: 'currency "eur" (lower case)', method: 'POST', path: '/carts', body: { items: [ITEM], currency: 'eur' }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'currency' },
  { name: 'currency "EURO"', method: 'POST', path: '/carts', body: { items: [ITEM], currency: 'EURO' }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'currency' },
  { name: 'currency "XXQ" (well-formed, not ISO 4217)', method: 'POST', path: '/carts', body: { items: [ITEM], currency: 'XXQ' }, status: 400, code: 'CURRENCY_NOT_SUPPORTED', param: 'currency' },
  { name: 'previousCartId 42', method: 'POST', path: '/carts', body: { items: [ITEM], previousCartId: 42 }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'previousCartId' },
  { name: 'items an object', method: 'POST', path: '/carts', body: { items: { 0: ITEM } }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items' },
  { name: 'items a string', method: 'POST', path: '/carts', body: { items: ITEM_JSON }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items' },
  { name: 'an item that is a string', method: 'POST', path: '/carts', body: { items: [ITEM, 'standing'] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[1]' },
  // missing required fields: param is the JSON path of the missing field
  { name: 'no items', method: 'POST', path: '/carts', body: { currency: 'EUR' }, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'items' },
  { name: 'empty object', method: 'POST', path: '/carts', body: {}, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'items' },
  { name: 'items[0] without priceOptionId', method: 'POST', path: '/carts', body: { items: [itemWithout('priceOptionId')] }, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'items[0].priceOptionId' },
  { name: 'items[0] without occurrenceId', method: 'POST', path: '/carts', body: { items: [itemWithout('occurrenceId')] }, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'items[0].occurrenceId' },
  { name: 'items[0] without inventoryItemId', method: 'POST', path: '/carts', body: { items: [itemWithout('inventoryItemId')] }, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'items[0].inventoryItemId' },
  { name: 'items[2] without quantity', method: 'POST', path: '/carts', body: { items: [ITEM, ITEM, itemWithout('quantity')] }, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'items[2].quantity' },
  // unknown fields are refused, not dropped
  { name: 'unknown top-level field', method: 'POST', path: '/carts', body: { items: [ITEM], discount: 100 }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'discount' },
  { name: 'unknown item field (a client price)', method: 'POST', path: '/carts', body: { items: [ITEM, itemWith({ price: 1 })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[1].price' },
  // nulls
  { name: 'items null', method: 'POST', path: '/carts', body: { items: null }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items' },
  { name: 'items [null]', method: 'POST', path: '/carts', body: { items: [null] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0]' },
  { name: 'quantity null', method: 'POST', path: '/carts', body: { items: [itemWith({ quantity: null })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'occurrenceId null', method: 'POST', path: '/carts', body: { items: [itemWith({ occurrenceId: null })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].occurrenceId' },
  { name: 'currency null', method: 'POST', path: '/carts', body: { items: [ITEM], currency: null }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'currency' },
  { name: 'previousCartId null', method: 'POST', path: '/carts', body: { items: [ITEM], previousCartId: null }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'previousCartId' },
  // empty arrays and too many items (documented limit: 50 items per request)
  { name: 'items []', method: 'POST', path: '/carts', body: { items: [] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items' },
  { name: '51 items', method: 'POST', path: '/carts', body: { items: Array.from({ length: 51 }, () => ITEM) }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items' },
  // numbers out of range (documented: quantities 1 to 100)
  { name: 'quantity 1e300', method: 'POST', path: '/carts', body: { items: [itemWith({ quantity: 1e300 })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity 2**53', method: 'POST', path: '/carts', body: { items: [itemWith({ quantity: 2 ** 53 })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity 2**53 + 1 written raw', method: 'POST', path: '/carts', rawBody: `{"items":[${ITEM_JSON.replace('"quantity":1', '"quantity":9007199254740993')}]}`, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity 1e400 written raw', method: 'POST', path: '/carts', rawBody: `{"items":[${ITEM_JSON.replace('"quantity":1', '"quantity":1e400')}]}`, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity -1e400 written raw', method: 'POST', path: '/carts', rawBody: `{"items":[${ITEM_JSON.replace('"quantity":1', '"quantity":-1e400')}]}`, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity -1', method: 'POST', path: '/carts', body: { items: [itemWith({ quantity: -1 })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity 0', method: 'POST', path: '/carts', body: { items: [itemWith({ quantity: 0 })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity 1.5', method: 'POST', path: '/carts', body: { items: [itemWith({ quantity: 1.5 })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity 101', method: 'POST', path: '/carts', body: { items: [itemWith({ quantity: 101 })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  // strings: empty, huge, odd code points
  { name: 'occurrenceId ""', method: 'POST', path: '/carts', body: { items: [itemWith({ occurrenceId: '' })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].occurrenceId' },
  { name: 'occurrenceId of 200 000 characters', method: 'POST', path: '/carts', body: { items: [itemWith({ occurrenceId: 'o'.repeat(200_000) })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].occurrenceId' },
  { name: 'priceOptionId of 129 characters', method: 'POST', path: '/carts', body: { items: [itemWith({ priceOptionId: 'p'.repeat(129) })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].priceOptionId' },
  { name: 'occurrenceId "\\u0000" (unknown occurrence)', method: 'POST', path: '/carts', body: { items: [itemWith({ occurrenceId: '\u0000' })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].occurrenceId' },
  { name: 'occurrenceId a lone surrogate', method: 'POST', path: '/carts', body: { items: [itemWith({ occurrenceId: '\ud800' })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].occurrenceId' },
  { name: "occurrenceId \"' OR 1=1 --\"", method: 'POST', path: '/carts', body: { items: [itemWith({ occurrenceId: "' OR 1=1 --" })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].occurrenceId' },
  { name: 'inventoryItemId unknown', method: 'POST', path: '/carts', body: { items: [itemWith({ inventoryItemId: 'roof' })] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].inventoryItemId' },
  // deep nesting
  { name: 'items nested 100 000 arrays deep', method: 'POST', path: '/carts', rawBody: `{"items":${deepArrays(100_000)}}`, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0]' },
  { name: 'an unknown field nested 40 000 objects deep', method: 'POST', path: '/carts', rawBody: `{"items":[${ITEM_JSON}],"x":${deepObject(40_000)}}`, status: 400, code: 'INVALID_FIELD_VALUE', param: 'x' },
];

const switchCurrencyCases: Case[] = [
  { name: 'empty object', method: 'PATCH', path: '/carts/:cart', body: {}, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'currency' },
  { name: 'currency 840', method: 'PATCH', path: '/carts/:cart', body: { currency: 840 }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'currency' },
  { name: 'currency null', method: 'PATCH', path: '/carts/:cart', body: { currency: null }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'currency' },
  { name: 'currency ""', method: 'PATCH', path: '/carts/:cart', body: { currency: '' }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'currency' },
  { name: 'currency ["USD"]', method: 'PATCH', path: '/carts/:cart', body: { currency: ['USD'] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'currency' },
  { name: 'currency "usd"', method: 'PATCH', path: '/carts/:cart', body: { currency: 'usd' }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'currency' },
  { name: 'currency of 200 000 characters', method: 'PATCH', path: '/carts/:cart', body: { currency: 'U'.repeat(200_000) }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'currency' },
  { name: 'currency "XXQ"', method: 'PATCH', path: '/carts/:cart', body: { currency: 'XXQ' }, status: 400, code: 'CURRENCY_NOT_SUPPORTED', param: 'currency' },
  { name: 'unknown field', method: 'PATCH', path: '/carts/:cart', body: { currency: 'USD', expiresAt: '2099-01-01T00:00:00Z' }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'expiresAt' },
  { name: 'an item list (admission items are fixed)', method: 'PATCH', path: '/carts/:cart', body: { currency: 'USD', items: [ITEM] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items' },
];

const addExtrasCases: Case[] = [
  { name: 'empty object', method: 'POST', path: '/carts/:cart/items', body: {}, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'items' },
  { name: 'items []', method: 'POST', path: '/carts/:cart/items', body: { items: [] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items' },
  { name: 'items null', method: 'POST', path: '/carts/:cart/items', body: { items: null }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items' },
  { name: 'items "parking"', method: 'POST', path: '/carts/:cart/items', body: { items: 'parking' }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items' },
  { name: 'items[0] without quantity', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'programme' }] }, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'items[0].quantity' },
  { name: 'items[1] without extraId', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'programme', quantity: 1 }, { quantity: 1 }] }, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'items[1].extraId' },
  { name: 'quantity "2"', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'programme', quantity: '2' }] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity null', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'programme', quantity: null }] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity 0', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'programme', quantity: 0 }] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity -3', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'programme', quantity: -3 }] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity 1.5', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'programme', quantity: 1.5 }] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity 2**53', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'programme', quantity: 2 ** 53 }] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity 1e300', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'programme', quantity: 1e300 }] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity 1e400 written raw', method: 'POST', path: '/carts/:cart/items', rawBody: '{"items":[{"extraId":"programme","quantity":1e400}]}', status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'quantity above the extra\'s maxQuantity (parking: 4)', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'parking', quantity: 5 }] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].quantity' },
  { name: 'unknown extraId', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'caviar', quantity: 1 }] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].extraId' },
  { name: 'extraId of 200 000 characters', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'e'.repeat(200_000), quantity: 1 }] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].extraId' },
  { name: 'unknown item field (a client price)', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'programme', quantity: 1, price: 0 }] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items[0].price' },
  { name: 'unknown top-level field', method: 'POST', path: '/carts/:cart/items', body: { items: [{ extraId: 'programme', quantity: 1 }], free: true }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'free' },
  { name: 'an admission item instead of an extra', method: 'POST', path: '/carts/:cart/items', body: { items: [ITEM] }, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'items[0].extraId' },
  { name: '51 items', method: 'POST', path: '/carts/:cart/items', body: { items: Array.from({ length: 51 }, () => ({ extraId: 'programme', quantity: 1 })) }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'items' },
];

const changeQuantityCases: Case[] = [
  { name: 'empty object', method: 'PATCH', path: '/carts/:cart/items/:extra', body: {}, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'quantity' },
  { name: 'quantity "2"', method: 'PATCH', path: '/carts/:cart/items/:extra', body: { quantity: '2' }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'quantity' },
  { name: 'quantity null', method: 'PATCH', path: '/carts/:cart/items/:extra', body: { quantity: null }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'quantity' },
  { name: 'quantity 0 (drop with DELETE instead)', method: 'PATCH', path: '/carts/:cart/items/:extra', body: { quantity: 0 }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'quantity' },
  { name: 'quantity -1', method: 'PATCH', path: '/carts/:cart/items/:extra', body: { quantity: -1 }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'quantity' },
  { name: 'quantity 1.5', method: 'PATCH', path: '/carts/:cart/items/:extra', body: { quantity: 1.5 }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'quantity' },
  { name: 'quantity 2**53', method: 'PATCH', path: '/carts/:cart/items/:extra', body: { quantity: 2 ** 53 }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'quantity' },
  { name: 'quantity 1e300', method: 'PATCH', path: '/carts/:cart/items/:extra', body: { quantity: 1e300 }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'quantity' },
  { name: 'quantity 1e400 written raw', method: 'PATCH', path: '/carts/:cart/items/:extra', rawBody: '{"quantity":1e400}', status: 400, code: 'INVALID_FIELD_VALUE', param: 'quantity' },
  { name: 'quantity above maxQuantity (parking: 4)', method: 'PATCH', path: '/carts/:cart/items/:extra', body: { quantity: 5 }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'quantity' },
  { name: 'quantity {"$gt":0}', method: 'PATCH', path: '/carts/:cart/items/:extra', body: { quantity: { $gt: 0 } }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'quantity' },
  { name: 'unknown field', method: 'PATCH', path: '/carts/:cart/items/:extra', body: { quantity: 2, unitPrice: { amount: 0, currency: 'EUR' } }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'unitPrice' },
  { name: 'an itemId naming the admission line', method: 'PATCH', path: '/carts/:cart/items/:admission', body: { quantity: 2 }, status: 400, code: 'ITEM_NOT_MODIFIABLE', param: 'itemId' },
  { name: 'an itemId the cart does not hold', method: 'PATCH', path: '/carts/:cart/items/nope', body: { quantity: 2 }, status: 404, code: 'RESOURCE_NOT_FOUND', param: 'itemId' },
];

const voucherCases: Case[] = [
  { name: 'empty object', method: 'POST', path: '/carts/:cart/vouchers', body: {}, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'code' },
  { name: 'code 10', method: 'POST', path: '/carts/:cart/vouchers', body: { code: 10 }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'code' },
  { name: 'code null', method: 'POST', path: '/carts/:cart/vouchers', body: { code: null }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'code' },
  { name: 'code ""', method: 'POST', path: '/carts/:cart/vouchers', body: { code: '' }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'code' },
  { name: 'code ["WELCOME10"]', method: 'POST', path: '/carts/:cart/vouchers', body: { code: ['WELCOME10'] }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'code' },
  { name: 'code of 65 characters', method: 'POST', path: '/carts/:cart/vouchers', body: { code: 'W'.repeat(65) }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'code' },
  { name: 'code of 200 000 characters', method: 'POST', path: '/carts/:cart/vouchers', body: { code: 'W'.repeat(200_000) }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'code' },
  { name: 'unknown field', method: 'POST', path: '/carts/:cart/vouchers', body: { code: 'WELCOME10', percentOff: 100 }, status: 400, code: 'INVALID_FIELD_VALUE', param: 'percentOff' },
  { name: 'unknown code', method: 'POST', path: '/carts/:cart/vouchers', body: { code: 'NOPE' }, status: 400, code: 'INVALID_VOUCHER', param: 'code' },
  { name: "code \"' OR '1'='1\"", method: 'POST', path: '/carts/:cart/vouchers', body: { code: "' OR '1'='1" }, status: 400, code: 'INVALID_VOUCHER', param: 'code' },
  { name: 'expired code', method: 'POST', path: '/carts/:cart/vouchers', body: { code: 'SUMMER24' }, status: 400, code: 'INVALID_VOUCHER', param: 'code' },
];

const catalogCases: Case[] = [
  { name: 'empty object', method: 'PUT', path: '/catalog', body: {}, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'locations' },
  { name: 'no events', method: 'PUT', path: '/catalog', body: { locations: [] }, status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'events' },
  { name: 'unknown top-level field', method: 'PUT', path: '/catalog', body: catalogWith(({ doc }) => { doc.orders = []; }), status: 400, code: 'INVALID_FIELD_VALUE', param: 'orders' },
  { name: 'locations null', method: 'PUT', path: '/catalog', body: catalogWith(({ doc }) => { doc.locations = null; }), status: 400, code: 'INVALID_FIELD_VALUE', param: 'locations' },
  { name: 'location without currencies', method: 'PUT', path: '/catalog', body: catalogWith(({ doc }) => { doc.locations = [{ id: 'bad-venue', name: 'Bad venue' }]; }), status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'locations[0].currencies' },
  { name: 'location currencies []', method: 'PUT', path: '/catalog', body: catalogWith(({ doc }) => { doc.locations = [{ id: 'bad-venue', name: 'Bad venue', currencies: [] }]; }), status: 400, code: 'INVALID_FIELD_VALUE', param: 'locations[0].currencies' },
  { name: 'location currency "eur"', method: 'PUT', path: '/catalog', body: catalogWith(({ doc }) => { doc.locations = [{ id: 'bad-venue', name: 'Bad venue', currencies: ['eur'] }]; }), status: 400, code: 'INVALID_FIELD_VALUE', param: 'locations[0].currencies[0]' },
  { name: 'event without kind', method: 'PUT', path: '/catalog', body: catalogWith(({ event }) => { delete event.kind; }), status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'events[0].kind' },
  { name: 'event kind "concert"', method: 'PUT', path: '/catalog', body: catalogWith(({ event }) => { event.kind = 'concert'; }), status: 400, code: 'INVALID_FIELD_VALUE', param: 'events[0].kind' },
  { name: 'event at an unknown location', method: 'PUT', path: '/catalog', body: catalogWith(({ event }) => { event.locationId = 'nowhere'; }), status: 400, code: 'INVALID_FIELD_VALUE', param: 'events[0].locationId' },
  { name: 'onSale "true"', method: 'PUT', path: '/catalog', body: catalogWith(({ occurrence }) => { occurrence.onSale = 'true'; }), status: 400, code: 'INVALID_FIELD_VALUE', param: 'events[0].occurrences[0].onSale' },
  { name: 'startsAt "tomorrow"', method: 'PUT', path: '/catalog', body: catalogWith(({ occurrence }) => { occurrence.startsAt = 'tomorrow'; }), status: 400, code: 'INVALID_FIELD_VALUE', param: 'events[0].occurrences[0].startsAt' },
  { name: 'seating null', method: 'PUT', path: '/catalog', body: catalogWith(({ area }) => { area.seating = null; }), status: 400, code: 'INVALID_FIELD_VALUE', param: `${AREA}.seating` },
  { name: 'capacity "5"', method: 'PUT', path: '/catalog', body: catalogWith(({ item }) => { item.capacity = '5'; }), status: 400, code: 'INVALID_FIELD_VALUE', param: `${AREA}.inventoryItems[0].capacity` },
  { name: 'capacity -1', method: 'PUT', path: '/catalog', body: catalogWith(({ item }) => { item.capacity = -1; }), status: 400, code: 'INVALID_FIELD_VALUE', param: `${AREA}.inventoryItems[0].capacity` },
  { name: 'capacity 1.5', method: 'PUT', path: '/catalog', body: catalogWith(({ item }) => { item.capacity = 1.5; }), status: 400, code: 'INVALID_FIELD_VALUE', param: `${AREA}.inventoryItems[0].capacity` },
  { name: 'capacity 1e300', method: 'PUT', path: '/catalog', body: catalogWith(({ item }) => { item.capacity = 1e300; }), status: 400, code: 'INVALID_FIELD_VALUE', param: `${AREA}.inventoryItems[0].capacity` },
  { name: 'inventory item without capacity', method: 'PUT', path: '/catalog', body: catalogWith(({ item }) => { delete item.capacity; }), status: 400, code: 'MISSING_REQUIRED_FIELD', param: `${AREA}.inventoryItems[0].capacity` },
  { name: 'inventoryItems []', method: 'PUT', path: '/catalog', body: catalogWith(({ area }) => { area.inventoryItems = []; }), status: 400, code: 'INVALID_FIELD_VALUE', param: `${AREA}.inventoryItems` },
  { name: 'price amount 2**53', method: 'PUT', path: '/catalog', body: catalogWith(({ price }) => { price.amount = 2 ** 53; }), status: 400, code: 'INVALID_FIELD_VALUE', param: `${AREA}.priceOptions[0].price.amount` },
  { name: 'price amount -100', method: 'PUT', path: '/catalog', body: catalogWith(({ price }) => { price.amount = -100; }), status: 400, code: 'INVALID_FIELD_VALUE', param: `${AREA}.priceOptions[0].price.amount` },
  { name: 'price amount "10.00"', method: 'PUT', path: '/catalog', body: catalogWith(({ price }) => { price.amount = '10.00'; }), status: 400, code: 'INVALID_FIELD_VALUE', param: `${AREA}.priceOptions[0].price.amount` },
  { name: 'price with decimalPlaces (the legacy form)', method: 'PUT', path: '/catalog', body: catalogWith(({ price }) => { price.decimalPlaces = 2; }), status: 400, code: 'INVALID_FIELD_VALUE', param: `${AREA}.priceOptions[0].price.decimalPlaces` },
  { name: 'exchange rate "1,08"', method: 'PUT', path: '/catalog', body: catalogWith(({ doc }) => { doc.exchangeRates = [{ from: 'EUR', to: 'USD', rate: '1,08' }]; }), status: 400, code: 'INVALID_FIELD_VALUE', param: 'exchangeRates[0].rate' },
  { name: 'exchange rate 1.08 as a number', method: 'PUT', path: '/catalog', body: catalogWith(({ doc }) => { doc.exchangeRates = [{ from: 'EUR', to: 'USD', rate: 1.08 }]; }), status: 400, code: 'INVALID_FIELD_VALUE', param: 'exchangeRates[0].rate' },
  { name: 'voucher percentOff 101', method: 'PUT', path: '/catalog', body: catalogWith(({ doc }) => { doc.vouchers = [{ code: 'BAD', percentOff: 101 }]; }), status: 400, code: 'INVALID_FIELD_VALUE', param: 'vouchers[0].percentOff' },
  { name: 'event name of 200 000 characters', method: 'PUT', path: '/catalog', body: catalogWith(({ event }) => { event.name = 'n'.repeat(200_000); }), status: 400, code: 'INVALID_FIELD_VALUE', param: 'events[0].name' },
];

/** every endpoint that takes a body, with a body it would otherwise accept */
const bodyEndpoints: { endpoint: string; method: string; path: string; valid: unknown }[] = [
  { endpoint: 'POST /carts', method: 'POST', path: '/carts', valid: { items: [ITEM] } },
  { endpoint: 'PATCH /carts/{id}', method: 'PATCH', path: '/carts/:cart', valid: { currency: 'USD' } },
  { endpoint: 'POST /carts/{id}/items', method: 'POST', path: '/carts/:cart/items', valid: { items: [{ extraId: 'programme', quantity: 1 }] } },
  { endpoint: 'PATCH /carts/{id}/items/{itemId}', method: 'PATCH', path: '/carts/:cart/items/:extra', valid: { quantity: 2 } },
  { endpoint: 'POST /carts/{id}/vouchers', method: 'POST', path: '/carts/:cart/vouchers', valid: { code: 'WELCOME10' } },
  { endpoint: 'PUT /catalog', method: 'PUT', path: '/catalog', valid: catalogDoc() },
];

const wholeBodyShapes: { shape: string; rawBody: string | ((valid: unknown) => string); code: string }[] = [
  { shape: 'a JSON array', rawBody: '[]', code: 'INVALID_FIELD_VALUE' },
  { shape: 'an array holding a valid body', rawBody: (valid) => JSON.stringify([valid]), code: 'INVALID_FIELD_VALUE' },
  { shape: 'null', rawBody: 'null', code: 'INVALID_FIELD_VALUE' },
  { shape: 'a JSON string', rawBody: '"hello"', code: 'INVALID_FIELD_VALUE' },
  { shape: 'a JSON number', rawBody: '42', code: 'INVALID_FIELD_VALUE' },
  { shape: 'true', rawBody: 'true', code: 'INVALID_FIELD_VALUE' },
  { shape: 'truncated JSON', rawBody: '{"items":[', code: 'MALFORMED_JSON' },
  { shape: 'plain text', rawBody: 'hello', code: 'MALFORMED_JSON' },
  { shape: 'a trailing comma', rawBody: '{"code":"WELCOME10",}', code: 'MALFORMED_JSON' },
  { shape: 'single quotes', rawBody: "{'code':'WELCOME10'}", code: 'MALFORMED_JSON' },
  { shape: 'an empty body', rawBody: '', code: 'MALFORMED_JSON' },
  { shape: 'whitespace only', rawBody: '  \n ', code: 'MALFORMED_JSON' },
];

const shapeCases: Case[] = bodyEndpoints.flatMap(({ endpoint, method, path, valid }) =>
  wholeBodyShapes.map(({ shape, rawBody, code }) => ({
    name: `${endpoint} with ${shape}`,
    method,
    path,
    rawBody: typeof rawBody === 'string' ? rawBody : rawBody(valid),
    status: 400,
    code,
  })),
);

const mediaTypeCases: Case[] = bodyEndpoints.flatMap(({ endpoint, method, path, valid }) => [
  { name: `${endpoint} as text/plain`, method, path, rawBody: JSON.stringify(valid), headers: { 'content-type': 'text/plain' }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { name: `${endpoint} as text/plain;charset=utf-8`, method, path, rawBody: JSON.stringify(valid), headers: { 'content-type': 'text/plain;charset=UTF-8' }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { name: `${endpoint} as a form`, method, path, rawBody: 'currency=USD', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { name: `${endpoint} as application/xml`, method, path, rawBody: '<cart/>', headers: { 'content-type': 'application/xml' }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
]);

/** The cart endpoints take at most 256 KiB. PUT /catalog takes more (64 MiB, engine/http/routes/catalog.ts): a seat map is big. */
const sizeCases: Case[] = [
  ...bodyEndpoints
    .filter(({ path }) => path !== '/catalog')
    .map(({ endpoint, method, path }) => ({ name: `${endpoint} with 300 KiB`, method, path, body: { pad: BIG }, status: 413, code: 'BODY_TOO_LARGE' })),
  { name: 'POST /carts with 300 KiB of whitespace around a valid body', method: 'POST', path: '/carts', rawBody: `${' '.repeat(300 * 1024)}{"items":[${ITEM_JSON}]}`, status: 413, code: 'BODY_TOO_LARGE' },
  { name: 'PUT /catalog with 300 KiB in a field (below its limit: validated, not refused for size)', method: 'PUT', path: '/catalog', body: catalogWith(({ doc }) => { doc.pad = BIG; }), status: 400, code: 'INVALID_FIELD_VALUE', param: 'pad' },
];

const protoCases: Case[] = [
  { name: '__proto__ at the top level', method: 'POST', path: '/carts', rawBody: `{"items":[${ITEM_JSON}],"__proto__":{"polluted":true}}`, status: 400, code: 'MALFORMED_JSON' },
  { name: '__proto__ inside an item', method: 'POST', path: '/carts', rawBody: `{"items":[{"__proto__":{"polluted":true},${ITEM_JSON.slice(1)}]}`, status: 400, code: 'MALFORMED_JSON' },
  { name: 'constructor.prototype at the top level', method: 'POST', path: '/carts', rawBody: `{"items":[${ITEM_JSON}],"constructor":{"prototype":{"polluted":true}}}`, status: 400, code: 'MALFORMED_JSON' },
  { name: '__proto__ in PATCH /carts/{id}', method: 'PATCH', path: '/carts/:cart', rawBody: '{"currency":"USD","__proto__":{"polluted":true}}', status: 400, code: 'MALFORMED_JSON' },
  { name: '__proto__ in a catalog event', method: 'PUT', path: '/catalog', rawBody: JSON.stringify(catalogDoc()).replace('"id":"bad-event"', '"__proto__":{"polluted":true},"id":"bad-event"'), status: 400, code: 'MALFORMED_JSON' },
];

/** Path parameters: bytes that are not UTF-8 once percent-decoded, and ids beyond the documented 128 characters. */
const pathCases: Case[] = [
  { name: 'GET /carts/%FF', method: 'GET', path: '/carts/%FF', status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'GET /carts/%C0%AF (overlong encoding)', method: 'GET', path: '/carts/%C0%AF', status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'POST /carts/%FF/vouchers', method: 'POST', path: '/carts/%FF/vouchers', body: { code: 'WELCOME10' }, status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'PATCH /carts/{id}/items/%ED%A0%80 (a surrogate)', method: 'PATCH', path: '/carts/:cart/items/%ED%A0%80', body: { quantity: 2 }, status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'DELETE /carts/{id}/vouchers/%E0%A4%A (truncated escape)', method: 'DELETE', path: '/carts/:cart/vouchers/%E0%A4%A', status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'GET /carts/{120 characters} (allowed length, unknown)', method: 'GET', path: `/carts/${'c'.repeat(120)}`, status: 404, code: 'RESOURCE_NOT_FOUND', param: 'cartId' },
  { name: 'GET /carts/{129 characters}', method: 'GET', path: `/carts/${'c'.repeat(129)}`, status: 400, code: 'INVALID_FIELD_VALUE', param: 'cartId' },
  { name: 'PATCH /carts/{unknown id}', method: 'PATCH', path: '/carts/nope', body: { currency: 'USD' }, status: 404, code: 'RESOURCE_NOT_FOUND', param: 'cartId' },
  { name: 'POST /carts/{unknown id}/items', method: 'POST', path: '/carts/nope/items', body: { items: [{ extraId: 'programme', quantity: 1 }] }, status: 404, code: 'RESOURCE_NOT_FOUND', param: 'cartId' },
  { name: 'DELETE /carts/{id}/vouchers/{65 characters}', method: 'DELETE', path: `/carts/:cart/vouchers/${'V'.repeat(65)}`, status: 400, code: 'INVALID_FIELD_VALUE', param: 'code' },
  { name: 'GET /carts/{id}?currency=usd', method: 'GET', path: '/carts/:cart?currency=usd', status: 400, code: 'INVALID_FIELD_VALUE', param: 'currency' },
  { name: 'GET /carts/{id}?currency=USD&currency=GBP', method: 'GET', path: '/carts/:cart?currency=USD&currency=GBP', status: 400, code: 'INVALID_FIELD_VALUE', param: 'currency' },
  { name: 'GET /carts/{id}?admin=1 (unknown query parameter)', method: 'GET', path: '/carts/:cart?admin=1', status: 400, code: 'INVALID_FIELD_VALUE', param: 'admin' },
];

const routeCases: Case[] = [
  { name: 'GET /api/v3/nope', method: 'GET', path: '/nope', status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'GET /api/v3/carts (no listing)', method: 'GET', path: '/carts', status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'PUT /api/v3/carts/{id}', method: 'PUT', path: '/carts/:cart', body: { items: [ITEM] }, status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'GET /api/v3/carts/{id}/items', method: 'GET', path: '/carts/:cart/items', status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'PUT /api/v3/carts/{id}/items/{itemId}', method: 'PUT', path: '/carts/:cart/items/:extra', body: { quantity: 2 }, status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'GET /api/v3/carts/{id}/vouchers', method: 'GET', path: '/carts/:cart/vouchers', status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'DELETE /api/v3/locations', method: 'DELETE', path: '/locations', status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'POST /api/v3/events', method: 'POST', path: '/events', body: {}, status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'DELETE /api/v3/catalog', method: 'DELETE', path: '/catalog', status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'POST /api/v3/health', method: 'POST', path: '/health', body: {}, status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'PROPFIND /api/v3/locations', method: 'PROPFIND', path: '/locations', status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'GET /api/v3/occurrences/{unknown}/inventory', method: 'GET', path: '/occurrences/nope/inventory', status: 404, code: 'RESOURCE_NOT_FOUND', param: 'occurrenceId' },
];

interface Inventory {
  data: { areas: { id: string; inventoryItems: { id: string; available: number }[] }[] };
}
interface CartBody {
  data: { id: string; total: { amount: number; currency: string }; items: { id: string; type: string; quantity: number; extraId?: string }[] };
}

describe('bad input', () => {
  let engine: TestEngine;
  const ids = { cart: '', extra: '', admission: '' };
  let stockBefore: Record<string, number>;
  let cartBefore: CartBody;
  let eventsBefore: unknown;

  const stock = async (): Promise<Record<string, number>> => {
    const response = await engine.request<Inventory>('GET', `/occurrences/${OCCURRENCE}/inventory`);
    expect(response.status).toBe(200);
    return Object.fromEntries(response.body.data.areas.flatMap((area) => area.inventoryItems.map((item) => [`${area.id}/${item.id}`, item.available])));
  };
  const resolve = (path: string) => path.replace(':cart', ids.cart).replace(':extra', ids.extra).replace(':admission', ids.admission);
  const send = (c: Case) => {
    const options = { ...(c.rawBody !== undefined && { rawBody: c.rawBody }), ...(c.body !== undefined && { body: c.body }), ...(c.headers && { headers: c.headers }) };
    return engine.request(c.method, resolve(c.path), options);
  };

  beforeAll(async () => {
    engine = await startTestEngine();
    const created = await engine.request<CartBody>('POST', '/carts', { body: { items: [itemWith({ quantity: 2 })] } });
    expect(created.status).toBe(201);
    const withExtra = await engine.request<CartBody>('POST', `/carts/${created.body.data.id}/items`, { body: { items: [{ extraId: 'parking', quantity: 1 }] } });
    expect(withExtra.status).toBe(200);
    const cart = withExtra.body.data;
    ids.cart = cart.id;
    ids.extra = cart.items.find((item) => item.type === 'extra')?.id ?? '';
    ids.admission = cart.items.find((item) => item.type === 'admission')?.id ?? '';
    expect(ids.extra).not.toBe('');
    expect(ids.admission).not.toBe('');
    cartBefore = withExtra.body;
    stockBefore = await stock();
    eventsBefore = (await engine.request('GET', '/events')).body;
  });
  afterAll(() => engine.close());

  describe('POST /carts', () => {
    it.each(createCartCases)('$name → $status $code $param', async (c) => {
      expectError(await send(c), c.status, c.code, c.param);
    });
  });

  describe('PATCH /carts/{id}', () => {
    it.each(switchCurrencyCases)('$name → $status $code $param', async (c) => {
      expectError(await send(c), c.status, c.code, c.param);
    });
  });

  describe('POST /carts/{id}/items', () => {
    it.each(addExtrasCases)('$name → $status $code $param', async (c) => {
      expectError(await send(c), c.status, c.code, c.param);
    });
  });

  describe('PATCH /carts/{id}/items/{itemId}', () => {
    it.each(changeQuantityCases)('$name → $status $code $param', async (c) => {
      expectError(await send(c), c.status, c.code, c.param);
    });
  });

  describe('POST /carts/{id}/vouchers', () => {
    it.each(voucherCases)('$name → $status $code $param', async (c) => {
      expectError(await send(c), c.status, c.code, c.param);
    });
  });

  describe('PUT /catalog', () => {
    it('the base document of these cases passes the schema (so each case fails for its one defect)', () => {
      expect(Value.Check(CatalogDocument, catalogDoc())).toBe(true);
    });

    it.each(catalogCases)('$name → $status $code $param', async (c) => {
      expectError(await send(c), c.status, c.code, c.param);
    });

    it('PUT /catalog with 65 MiB → 413 BODY_TOO_LARGE', async () => {
      const rawBody = `{"locations":[],"events":[],"pad":"${'x'.repeat(65 * 1024 * 1024)}"}`;
      expectError(await engine.request('PUT', '/catalog', { rawBody }), 413, 'BODY_TOO_LARGE', undefined);
    });
  });

  describe('the whole body is not an object', () => {
    it.each(shapeCases)('$name → $status $code', async (c) => {
      expectError(await send(c), c.status, c.code, undefined);
    });
  });

  describe('content types other than JSON', () => {
    it.each(mediaTypeCases)('$name → $status $code', async (c) => {
      expectError(await send(c), c.status, c.code, undefined);
    });
  });

  describe('body size', () => {
    it.each(sizeCases)('$name → $status $code', async (c) => {
      expectError(await send(c), c.status, c.code, c.param);
    });
  });

  describe('prototype keys', () => {
    it.each(protoCases)('$name → $status $code', async (c) => {
      expectError(await send(c), c.status, c.code, undefined);
      // the engine runs in this process: nothing leaked onto Object.prototype
      expect(Object.prototype).not.toHaveProperty('polluted');
      expect(Reflect.get({}, 'polluted')).toBeUndefined();
    });
  });

  describe('path and query parameters', () => {
    it.each(pathCases)('$name → $status $code $param', async (c) => {
      expectError(await send(c), c.status, c.code, c.param);
    });
  });

  describe('unknown routes and methods', () => {
    it.each(routeCases)('$name → $status $code', async (c) => {
      expectError(await send(c), c.status, c.code, c.param);
    });

    it.each([
      ['GET', '/no-such-page.html'],
      ['POST', '/'],
      ['GET', '/api/v4/carts'],
      ['GET', '/api/v2/baskets/abc'], // /api/v1 is the legacy facade now (test/api/v1-*.test.ts)
      ['GET', '/api/v3'],
      ['GET', '/API/V3/LOCATIONS'],
    ])('%s %s (outside the API) → 404 RESOURCE_NOT_FOUND', async (method, path) => {
      const response = await fetch(`${engine.url}${path}`, { method, headers: { 'x-svc-api-key': engine.keys.admin } });
      const text = await response.text();
      expectError({ status: response.status, headers: response.headers, body: JSON.parse(text) as unknown }, 404, 'RESOURCE_NOT_FOUND', undefined);
    });

    it('GET / is the UI (served with its Content-Security-Policy), not an API answer', async () => {
      const response = await fetch(`${engine.url}/`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    });

    it('an unknown route without a key is 404, not 401', async () => {
      expectError(await engine.request('GET', '/nope', { key: null }), 404, 'RESOURCE_NOT_FOUND', undefined);
    });
  });

  describe('after the barrage', () => {
    it('the held cart is exactly as it was', async () => {
      const response = await engine.request<CartBody>('GET', `/carts/${ids.cart}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(cartBefore);
    });

    it('no stock was lost or gained', async () => {
      expect(await stock()).toEqual(stockBefore);
    });

    it('the catalog was not replaced', async () => {
      expect((await engine.request('GET', '/events')).body).toEqual(eventsBefore);
    });

    it('the engine still sells: a new cart takes exactly its seats and gives them back on delete', async () => {
      const created = await engine.request<CartBody>('POST', '/carts', { body: { items: [itemWith({ quantity: 3 })] } });
      expect(created.status).toBe(201);
      const during = await stock();
      expect(during['standing/standing']).toBe((stockBefore['standing/standing'] ?? Number.NaN) - 3);
      expect((await engine.request('DELETE', `/carts/${created.body.data.id}`)).status).toBe(204);
      expect(await stock()).toEqual(stockBefore);
    });

    it('nothing answered 5xx: no unexpected error was logged', () => {
      const errors = engine
        .logs()
        .split('\n')
        .filter((line) => line.includes('"level":50') || line.includes('"level":60'));
      expect(errors).toEqual([]);
    });
  });
});
