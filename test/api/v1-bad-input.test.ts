import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksumOf } from '../../engine/legacy-v1/http/channel-auth';
import { available } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { basketOf, CONCERT, createChannel, extra, ticket, v1, v1ErrorOf, type Basket, type Channel, type V1Options } from '../helpers/v1';

/**
 * Bad input on every v1 route: malformed bodies (wrong types, never coerced; missing, unknown and null
 * fields; out-of-range numbers; broken references; huge strings; broken JSON; wrong media types; oversized
 * bodies; prototype keys), bad path parameters, and wrong checksums — another secret, another channel's id,
 * a checksum replayed over another body, path, query or method. Every answer is a 4xx in the exact v1 shape
 * with the deprecation headers, never a 5xx; afterwards the basket under attack, the stock and the
 * references named in the bodies are exactly as before.
 */

const REF = 'victim';
type Json = Record<string, unknown>;
const GOOD = { reference: 'intruder', reservations: [ticket(1)] };
const withBody = (changes: Json): Json => ({ ...GOOD, ...changes });
const withReservation = (changes: Json): Json => ({ reference: 'intruder', reservations: [{ ...ticket(1), ...changes }] });
const withoutField = (field: string): Json => ({ reference: 'intruder', reservations: [Object.fromEntries(Object.entries(ticket(1)).filter(([name]) => name !== field))] });

interface Case {
  name: string;
  method: string;
  path: string;
  options: V1Options;
  status: number;
  code: string;
}

const upsertBody = (name: string, body: unknown, code: string, status = 400): Case => ({ name, method: 'PATCH', path: '/baskets', options: { body }, status, code });
const upsertRaw = (name: string, rawBody: string, code: string, status = 400, headers?: Record<string, string>): Case => ({
  name,
  method: 'PATCH',
  path: '/baskets',
  options: { rawBody, ...(headers && { headers }) },
  status,
  code,
});
const promoBody = (name: string, body: unknown, code: string, status = 400): Case => ({ name, method: 'PATCH', path: `/baskets/${REF}/applyPromotion`, options: { body }, status, code });

const FIELD = 'INVALID_FIELD_VALUE';
const MISSING = 'MISSING_REQUIRED_FIELD';

const CASES: Case[] = [
  // --- the upsert body as a whole
  upsertBody('body null', null, FIELD),
  upsertBody('body an array', [GOOD], FIELD),
  upsertBody('body a string', 'basket', FIELD),
  upsertBody('body a number', 42, FIELD),
  upsertBody('body true', true, FIELD),
  upsertBody('empty object', {}, MISSING),
  upsertBody('no reference', { reservations: [ticket(1)] }, MISSING),
  upsertBody('no reservations', { reference: 'intruder' }, MISSING),
  upsertBody('unknown top-level field', withBody({ currency: 'EUR' }), FIELD),
  upsertBody('a cartId smuggled in', withBody({ cartId: 'x' }), FIELD),
  upsertBody('__proto__ key', JSON.parse('{"reference":"intruder","reservations":[],"__proto__":{"admin":true}}'), 'MALFORMED_JSON'),
  // --- reference
  upsertBody('reference null', withBody({ reference: null }), FIELD),
  upsertBody('reference a number', withBody({ reference: 7 }), FIELD),
  upsertBody('reference empty', withBody({ reference: '' }), FIELD),
  upsertBody('reference with a space', withBody({ reference: 'a b' }), FIELD),
  upsertBody('reference with a newline', withBody({ reference: 'a\nb' }), FIELD),
  upsertBody('reference non-ASCII', withBody({ reference: 'körbchen' }), FIELD),
  upsertBody('reference 129 characters', withBody({ reference: 'r'.repeat(129) }), FIELD),
  upsertBody('reference an object', withBody({ reference: { id: 'x' } }), FIELD),
  upsertBody('reference an array', withBody({ reference: ['x'] }), FIELD),
  // --- reservations
  upsertBody('reservations null', withBody({ reservations: null }), FIELD),
  upsertBody('reservations empty', withBody({ reservations: [] }), FIELD),
  upsertBody('reservations an object', withBody({ reservations: ticket(1) }), FIELD),
  upsertBody('reservations a string', withBody({ reservations: 'standing:standing-adult' }), FIELD),
  upsertBody('51 reservations', withBody({ reservations: Array.from({ length: 51 }, () => ticket(1)) }), FIELD),
  upsertBody('a reservation null', withBody({ reservations: [null] }), FIELD),
  upsertBody('a reservation a number', withBody({ reservations: [1] }), FIELD),
  upsertBody('a reservation an array', withBody({ reservations: [[CONCERT, 'standing:standing-adult', 1]] }), FIELD),
  upsertBody('a reservation empty', withBody({ reservations: [{}] }), MISSING),
  upsertBody('only extras', withBody({ reservations: [extra('parking', 1)] }), FIELD),
  upsertBody('a reservation with an unknown field', withReservation({ price: { value: 1, currency: 'EUR', decimalPlaces: 2 } }), FIELD),
  upsertBody('a reservationId in the upsert', withReservation({ reservationId: 'itm_x' }), FIELD),
  // --- productId
  upsertBody('productId missing', withoutField('productId'), MISSING),
  upsertBody('productId null', withReservation({ productId: null }), FIELD),
  upsertBody('productId a number', withReservation({ productId: 12 }), FIELD),
  upsertBody('productId empty', withReservation({ productId: '' }), FIELD),
  upsertBody('productId 129 characters', withReservation({ productId: 'p'.repeat(129) }), FIELD),
  upsertBody('productId unknown', withReservation({ productId: 'no-such-date' }), FIELD),
  upsertBody('productId off sale', withReservation({ productId: 'tempest-2027-04-16', aggregateReference: 'A1:stalls-full' }), 'OCCURRENCE_NOT_AVAILABLE', 409),
  upsertBody('extra for another date', withBody({ reservations: [ticket(1), extra('parking', 1, 'brass-2027-03-13')] }), 'MIXED_OCCURRENCES_NOT_SUPPORTED'),
  upsertBody('tickets of two dates', withBody({ reservations: [ticket(1), ticket(1, 'standing-adult', 'brass-2027-03-13')] }), 'MIXED_OCCURRENCES_NOT_SUPPORTED'),
  // --- aggregateReference
  upsertBody('aggregateReference missing', withoutField('aggregateReference'), MISSING),
  upsertBody('aggregateReference null', withReservation({ aggregateReference: null }), FIELD),
  upsertBody('aggregateReference a number', withReservation({ aggregateReference: 1 }), FIELD),
  upsertBody('aggregateReference empty', withReservation({ aggregateReference: '' }), FIELD),
  upsertBody('aggregateReference too short', withReservation({ aggregateReference: 'a:' }), FIELD),
  upsertBody('aggregateReference without colon', withReservation({ aggregateReference: 'standing' }), FIELD),
  upsertBody('aggregateReference only colons', withReservation({ aggregateReference: ':::' }), FIELD),
  upsertBody('aggregateReference empty item', withReservation({ aggregateReference: ':standing-adult' }), FIELD),
  upsertBody('aggregateReference empty option', withReservation({ aggregateReference: 'standing:' }), FIELD),
  upsertBody('aggregateReference extra without id', withBody({ reservations: [ticket(1), { productId: CONCERT, aggregateReference: 'extra:', quantity: 1 }] }), FIELD),
  upsertBody('aggregateReference unknown item', withReservation({ aggregateReference: 'pit:standing-adult' }), FIELD),
  upsertBody('aggregateReference unknown option', withReservation({ aggregateReference: 'standing:vip' }), 'INVALID_PRICE_OPTION'),
  upsertBody('aggregateReference option of another area', withReservation({ aggregateReference: 'standing:balcony-adult' }), 'INVALID_PRICE_OPTION'),
  upsertBody('aggregateReference unknown extra', withBody({ reservations: [ticket(1), extra('caviar', 1)] }), FIELD),
  upsertBody('aggregateReference 258 characters', withReservation({ aggregateReference: `${'i'.repeat(128)}:${'o'.repeat(129)}` }), FIELD),
  upsertBody('aggregateReference an object', withReservation({ aggregateReference: { inventoryItemId: 'standing', priceOptionId: 'standing-adult' } }), FIELD),
  upsertBody('aggregateReference v3 ids instead', withReservation({ aggregateReference: undefined, inventoryItemId: 'standing', priceOptionId: 'standing-adult' }), MISSING),
  // --- quantity
  upsertBody('quantity missing', withoutField('quantity'), MISSING),
  upsertBody('quantity null', withReservation({ quantity: null }), FIELD),
  upsertBody('quantity 0', withReservation({ quantity: 0 }), FIELD),
  upsertBody('quantity -1', withReservation({ quantity: -1 }), FIELD),
  upsertBody('quantity 1.5', withReservation({ quantity: 1.5 }), FIELD),
  upsertBody('quantity "1"', withReservation({ quantity: '1' }), FIELD),
  upsertBody('quantity true', withReservation({ quantity: true }), FIELD),
  upsertBody('quantity 101', withReservation({ quantity: 101 }), FIELD),
  upsertBody('quantity 2^53', withReservation({ quantity: 2 ** 53 }), FIELD),
  upsertBody('quantity an array', withReservation({ quantity: [1] }), FIELD),
  upsertBody('quantity beyond stock', withReservation({ aggregateReference: 'balcony:balcony-adult', quantity: 13 }), 'INVENTORY_EXHAUSTED', 409),
  upsertBody('seat quantity 2', withReservation({ productId: 'tempest-2027-04-02', aggregateReference: 'A1:stalls-full', quantity: 2 }), FIELD),
  upsertBody('gift card quantity 2', withReservation({ productId: 'gift-card', aggregateReference: 'gift-card:gift-50', quantity: 2 }), 'GIFT_CARD_QUANTITY_NOT_SUPPORTED'),
  upsertBody('extra past its cap', withBody({ reservations: [ticket(1), extra('parking', 5)] }), FIELD),
  upsertBody('extra twice past its cap', withBody({ reservations: [ticket(1), extra('parking', 3), extra('parking', 2)] }), FIELD),
  upsertBody('extra quantity 0', withBody({ reservations: [ticket(1), extra('parking', 0)] }), FIELD),
  upsertBody('two gift cards', withBody({ reservations: [{ productId: 'gift-card', aggregateReference: 'gift-card:gift-50', quantity: 1 }, { productId: 'gift-card', aggregateReference: 'gift-card:gift-25', quantity: 1 }] }), 'MULTIPLE_GIFT_CARDS_NOT_SUPPORTED'),
  upsertBody('an extra on a gift card', withBody({ reservations: [{ productId: 'gift-card', aggregateReference: 'gift-card:gift-50', quantity: 1 }, extra('parking', 1, 'gift-card')] }), FIELD),
  // --- the body as text
  upsertRaw('broken JSON', '{"reference":', 'MALFORMED_JSON'),
  upsertRaw('empty body with JSON type', '', 'MALFORMED_JSON'),
  upsertRaw('single quotes', "{'reference':'x'}", 'MALFORMED_JSON'),
  upsertRaw('trailing comma', '{"reference":"x","reservations":[],}', 'MALFORMED_JSON'),
  upsertRaw('NaN', '{"reference":"x","reservations":[{"quantity":NaN}]}', 'MALFORMED_JSON'),
  upsertRaw('two objects', '{}{}', 'MALFORMED_JSON'),
  upsertRaw('a bare word', 'basket', 'MALFORMED_JSON'),
  upsertRaw('constructor.prototype key', '{"reference":"x","reservations":[],"constructor":{"prototype":{"admin":true}}}', 'MALFORMED_JSON'),
  upsertRaw('deep nesting', `{"reservations":[],"reference":${'['.repeat(5000)}${']'.repeat(5000)}}`, FIELD),
  upsertRaw('text/plain', JSON.stringify(GOOD), 'UNSUPPORTED_MEDIA_TYPE', 415, { 'content-type': 'text/plain' }),
  upsertRaw('form encoded', 'reference=intruder', 'UNSUPPORTED_MEDIA_TYPE', 415, { 'content-type': 'application/x-www-form-urlencoded' }),
  upsertRaw('XML', '<basket/>', 'UNSUPPORTED_MEDIA_TYPE', 415, { 'content-type': 'application/xml' }),
  upsertRaw('multipart', '--x\r\n\r\n--x--', 'UNSUPPORTED_MEDIA_TYPE', 415, { 'content-type': 'multipart/form-data; boundary=x' }),
  upsertRaw('over 256 KiB', JSON.stringify(withBody({ reference: 'x'.repeat(300 * 1024) })), 'BODY_TOO_LARGE', 413),
  // --- applyPromotion
  promoBody('code missing', {}, MISSING),
  promoBody('code null', { code: null }, FIELD),
  promoBody('code a number', { code: 10 }, FIELD),
  promoBody('code empty', { code: '' }, FIELD),
  promoBody('code 65 characters', { code: 'C'.repeat(65) }, FIELD),
  promoBody('code an array', { code: ['WELCOME10'] }, FIELD),
  promoBody('code and an unknown field', { code: 'WELCOME10', percent: 100 }, FIELD),
  promoBody('promotion body an array', [{ code: 'WELCOME10' }], FIELD),
  promoBody('promotion body null', null, FIELD),
  promoBody('unknown code', { code: 'FREE-TICKETS' }, 'INVALID_VOUCHER'),
  promoBody('expired code', { code: 'SUMMER24' }, 'INVALID_VOUCHER'),
  promoBody('code for another event', { code: 'TEMPEST20' }, 'INVALID_VOUCHER'),
  { name: 'promotion as text/plain', method: 'PATCH', path: `/baskets/${REF}/applyPromotion`, options: { rawBody: 'WELCOME10', headers: { 'content-type': 'text/plain' } }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { name: 'promotion broken JSON', method: 'PATCH', path: `/baskets/${REF}/applyPromotion`, options: { rawBody: '{"code":' }, status: 400, code: 'MALFORMED_JSON' },
  // --- path parameters
  { name: 'reference 129 characters in the path', method: 'GET', path: `/baskets/${'r'.repeat(129)}`, options: {}, status: 400, code: FIELD },
  { name: 'reference with an encoded space', method: 'GET', path: '/baskets/a%20b', options: {}, status: 400, code: FIELD },
  { name: 'reference non-ASCII in the path', method: 'GET', path: '/baskets/k%C3%B6rbchen', options: {}, status: 400, code: FIELD },
  { name: 'broken percent-encoding', method: 'GET', path: '/baskets/%E0%A4%A', options: {}, status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'reservationId 129 characters', method: 'DELETE', path: `/baskets/${REF}/reservations/${'i'.repeat(129)}`, options: {}, status: 400, code: FIELD },
  { name: 'a ticket reservation', method: 'DELETE', path: `/baskets/${REF}/reservations/TICKET`, options: {}, status: 400, code: 'ITEM_NOT_MODIFIABLE' },
  { name: 'clear with broken JSON', method: 'PATCH', path: `/baskets/${REF}/clear`, options: { rawBody: '{"all":' }, status: 400, code: 'MALFORMED_JSON' },
  { name: 'clear as text/plain', method: 'PATCH', path: `/baskets/${REF}/clear`, options: { rawBody: 'now', headers: { 'content-type': 'text/plain' } }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { name: 'clear with a bad reference', method: 'PATCH', path: '/baskets/a%20b/clear', options: {}, status: 400, code: FIELD },
  { name: 'remove with a bad reference', method: 'DELETE', path: `/baskets/${'r'.repeat(129)}/reservations/itm_x`, options: {}, status: 400, code: FIELD },
  { name: 'remove with broken JSON', method: 'DELETE', path: `/baskets/${REF}/reservations/itm_x`, options: { rawBody: '{' }, status: 400, code: 'MALFORMED_JSON' },
  { name: 'promotion with a bad reference', method: 'PATCH', path: '/baskets/%00/applyPromotion', options: { body: { code: 'WELCOME10' } }, status: 400, code: FIELD },
  { name: 'unknown route', method: 'GET', path: '/orders', options: {}, status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'unknown method on a route', method: 'PUT', path: '/baskets', options: { body: GOOD }, status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'POST instead of PATCH', method: 'POST', path: '/baskets', options: { body: GOOD }, status: 404, code: 'RESOURCE_NOT_FOUND' },
  { name: 'clear with GET', method: 'GET', path: `/baskets/${REF}/clear`, options: {}, status: 404, code: 'RESOURCE_NOT_FOUND' },
];

describe('v1 bad input', () => {
  let engine: TestEngine;
  let channel: Channel;
  let other: Channel;
  let victim: Basket;
  const snapshot = async () => ({
    basket: basketOf(await v1(engine, channel, 'GET', `/baskets/${REF}`)),
    standing: await available(engine, CONCERT, 'standing'),
    balcony: await available(engine, CONCERT, 'balcony'),
    seat: await available(engine, 'tempest-2027-04-02', 'A1'),
    giftCards: await available(engine, 'gift-card', 'gift-card'),
    intruder: (await v1(engine, channel, 'GET', '/baskets/intruder')).status,
  });

  beforeAll(async () => {
    engine = await startTestEngine();
    channel = await createChannel(engine);
    other = await createChannel(engine, 'other');
    victim = basketOf(await v1(engine, channel, 'PATCH', '/baskets', { body: { reference: REF, reservations: [ticket(2), extra('parking', 1)] } }));
  });
  afterAll(() => engine.close());

  it(`has at least 100 cases (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(100);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  it('answers every malformed request in the v1 error shape with its code, never a 5xx, and changes nothing', async () => {
    const before = await snapshot();
    const ticketLine = victim.reservations[0]?.reservationId ?? '';
    const answers = [];
    for (const c of CASES) answers.push({ c, response: await v1(engine, channel, c.method, c.path.replace('TICKET', ticketLine), c.options) });
    const seen = answers.map(({ c, response }) => ({ name: c.name, status: response.status, code: (response.body as { errorCode?: string }).errorCode }));
    expect(seen).toEqual(CASES.map(({ name, status, code }) => ({ name, status, code })));
    for (const { c, response } of answers) {
      v1ErrorOf(response, c.status, c.code);
      expect(response.headers.get('deprecation'), c.name).not.toBeNull();
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses wrong checksums — another secret, another channel, a replay over another body, path, query or method — with 401, changing nothing', async () => {
    const before = await snapshot();
    const body = JSON.stringify({ reference: REF, reservations: [ticket(40)] });
    const sign = (method: string, path: string, text: string, secret = channel.secret) => checksumOf(secret, method, `/api/v1${path}`, text);
    const sent = { reference: REF, reservations: [ticket(1)] };
    const sentText = JSON.stringify(sent);
    // the original request, as an eavesdropper saw it
    const original = sign('PATCH', '/baskets', sentText);
    const attempts: [string, string, string, V1Options][] = [
      ['another secret', 'PATCH', '/baskets', { rawBody: body, checksum: sign('PATCH', '/baskets', body, other.secret) }],
      ["another channel's id with its own checksum", 'PATCH', '/baskets', { rawBody: body, channel: { id: other.id, secret: channel.secret } }],
      ['replayed over another body', 'PATCH', '/baskets', { rawBody: body, checksum: original }],
      ['replayed over the same body re-serialized', 'PATCH', '/baskets', { rawBody: JSON.stringify(sent, null, 1), checksum: original }],
      ['replayed over another path', 'PATCH', `/baskets/${REF}/clear`, { checksum: sign('GET', `/baskets/${REF}`, '') }],
      ['replayed over another method', 'PATCH', `/baskets/${REF}/clear`, { checksum: sign('GET', `/baskets/${REF}/clear`, '') }],
      ['replayed with another query', 'GET', `/baskets/${REF}?x=1`, { checksum: sign('GET', `/baskets/${REF}`, '') }],
      ['a body added to a signed bodiless request', 'PATCH', `/baskets/${REF}/applyPromotion`, { rawBody: '{"code":"WELCOME10"}', checksum: sign('PATCH', `/baskets/${REF}/applyPromotion`, '') }],
      ['checksum truncated', 'PATCH', '/baskets', { rawBody: sentText, checksum: original.slice(0, 63) }],
      ['checksum with a prefix', 'PATCH', '/baskets', { rawBody: sentText, checksum: `sha256=${original}` }],
      ['checksum not hex', 'PATCH', '/baskets', { rawBody: sentText, checksum: 'z'.repeat(64) }],
      ['checksum empty', 'PATCH', '/baskets', { rawBody: sentText, checksum: '' }],
      ['checksum base64', 'PATCH', '/baskets', { rawBody: sentText, checksum: Buffer.from(original, 'hex').toString('base64') }],
      ['channel id empty', 'GET', `/baskets/${REF}`, { channel: { id: '', secret: channel.secret } }],
      ['channel id malformed', 'GET', `/baskets/${REF}`, { channel: { id: "ch_x' OR 1=1 --", secret: channel.secret } }],
      ['no headers', 'PATCH', `/baskets/${REF}/clear`, { channel: null }],
      ['malformed body from a stranger', 'PATCH', '/baskets', { rawBody: '{"reference":', checksum: '0'.repeat(64) }],
    ];
    for (const [name, method, path, options] of attempts) {
      const response = await v1(engine, channel, method, path, options);
      expect(response.status, name).toBe(401);
      v1ErrorOf(response, 401, 'INVALID_API_KEY');
    }
    expect(await snapshot()).toEqual(before);
    // an exact replay is the same request again: accepted, and as idempotent as the first
    const replay = await v1(engine, channel, 'GET', `/baskets/${REF}`, { checksum: sign('GET', `/baskets/${REF}`, '') });
    expect(basketOf(replay)).toEqual(before.basket);
  });
});
