import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { expect } from 'vitest';
import { createCart, type ItemRequest } from './cart-assertions';
import { TEST_OWNER, type ApiResponse, type ErrorEnvelope, type TestEngine } from './engine';
import { card, ISO_TIMESTAMP, placeOrder, TICKET_CODE, type Order, type Ticket } from './orders';

/**
 * Checking tickets at the door (contract §15, the shared design of issue #26: "Signed codes" and "Check-in") as
 * the contract tests read it: the check-in answer, the ticket keys and revocations, the counts per show, and a
 * verifier of signed codes that uses node:crypto alone. Written from the contract and the design's wire format:
 * nothing here knows how the engine does it.
 */

/** the ticket part of a check-in answer */
export interface CheckinTicket {
  code: string;
  eventName: string;
  occurrenceId: string;
  startsAt: string;
  area: string;
  seat?: string;
}

/** POST /checkins 201 under `data` ("left" is an accepted "out", the design's name) */
export interface Checkin {
  result: 'admitted' | 'left';
  ticket: CheckinTicket;
  at: string;
  gate: string;
}

/** GET /ticket-keys entries */
export interface TicketKey {
  keyId: string;
  publicKey: string;
  engine: string;
}

/** GET /ticket-revocations entries and page */
export interface Revocation {
  seq: number;
  code: string;
  occurrenceId: string;
  at: string;
}
export interface RevocationsPage {
  data: Revocation[];
  nextAfter?: number;
}

/** GET /occurrences/{id}/checkins under `data` */
export interface CheckinCounts {
  admitted: number;
  inside: number;
  capacity: number;
  sold: number;
}

/** an order's ticket with the signed code of §15 */
export type SignedTicket = Ticket & { signedCode?: string };
export type SignedOrder = Omit<Order, 'tickets'> & { tickets: SignedTicket[] };

/** The demo catalog's shows the tests check tickets for (English names, as the catalog has them). */
export const CONCERT = { occurrenceId: 'brass-2027-03-12', startsAt: '2027-03-12T19:30:00Z', eventName: 'Midnight Brass — Live in Concert' } as const;
export const CONCERT_2 = { occurrenceId: 'brass-2027-03-13', startsAt: '2027-03-13T19:30:00Z', eventName: 'Midnight Brass — Live in Concert' } as const;
export const TEMPEST = { occurrenceId: 'tempest-2027-04-02', startsAt: '2027-04-02T18:00:00Z', eventName: 'The Tempest' } as const;

/** A till key (the standard keys' owner) with the scopes given; `checkin` alone by default. */
export function keyWith(engine: TestEngine, scopes: string[] = ['checkin']): Promise<string> {
  return engine.createKey(scopes, { owner: TEST_OWNER });
}

/** Sells `items` by card and expects 201; the order's tickets with their signed codes. */
export async function sellTickets(engine: TestEngine, items: ItemRequest[]): Promise<SignedOrder> {
  const cart = await createCart(engine, items);
  const order: SignedOrder = await placeOrder(engine, cart.id, cart.total, card());
  expect(order.tickets.length).toBeGreaterThan(0);
  for (const ticket of order.tickets) {
    expect(ticket.code).toMatch(TICKET_CODE);
    expect(ticket.signedCode, JSON.stringify(ticket)).toMatch(/^K1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  }
  return order;
}

/** The signed code of a ticket (failing the test when it has none). */
export function signedOf(ticket: SignedTicket): string {
  expect(ticket.signedCode, JSON.stringify(ticket)).toBeDefined();
  return ticket.signedCode ?? '';
}

export interface CheckinBody {
  code?: unknown;
  occurrenceId?: unknown;
  direction?: unknown;
  gate?: unknown;
}

/** POST /checkins, raw, with the key given (a checkin key of the caller's). */
export function postCheckin(engine: TestEngine, key: string, body: CheckinBody | unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return engine.request('POST', '/checkins', { body, key, headers });
}

/** Asserts a 201 check-in answer with `result` and the envelope's shape; answers it. */
export function checkinOf(response: ApiResponse, result: Checkin['result'] = 'admitted'): Checkin {
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const answer = (response.body as { data: Checkin }).data;
  expect(answer.result, JSON.stringify(response.body)).toBe(result);
  expect(answer.at).toMatch(ISO_TIMESTAMP);
  expect(Math.abs(Date.parse(answer.at) - Date.now())).toBeLessThan(60_000);
  expect(typeof answer.gate).toBe('string');
  expect(answer.ticket.code).toMatch(TICKET_CODE);
  expect(typeof answer.ticket.eventName).toBe('string');
  expect(typeof answer.ticket.area).toBe('string');
  return answer;
}

/** Checks a ticket in (or out) and expects 201 with the result given. */
export async function checkIn(engine: TestEngine, key: string, body: CheckinBody, result: Checkin['result'] = 'admitted'): Promise<Checkin> {
  return checkinOf(await postCheckin(engine, key, body), result);
}

/** The same instant: ISO strings compared as times (precision may differ). */
export function sameInstant(actual: unknown, expected: string): void {
  expect(typeof actual, String(actual)).toBe('string');
  expect(Date.parse(String(actual)), `${String(actual)} vs ${expected}`).toBe(Date.parse(expected));
}

/** GET /ticket-keys with a key, expecting 200; the keys under `data`. */
export async function ticketKeys(engine: TestEngine, key: string): Promise<TicketKey[]> {
  const response = await engine.request<{ data: TicketKey[] }>('GET', '/ticket-keys', { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

/** GET /ticket-revocations (with a query string), expecting 200. */
export async function revocations(engine: TestEngine, key: string, query = ''): Promise<RevocationsPage> {
  const response = await engine.request<RevocationsPage>('GET', `/ticket-revocations${query}`, { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** GET /occurrences/{id}/checkins, raw. */
export function getCounts(engine: TestEngine, key: string, occurrenceId: string): Promise<ApiResponse> {
  return engine.request('GET', `/occurrences/${encodeURIComponent(occurrenceId)}/checkins`, { key });
}

/** The counts of a show, expecting 200. */
export async function countsOf(engine: TestEngine, key: string, occurrenceId: string): Promise<CheckinCounts> {
  const response = await getCounts(engine, key, occurrenceId);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { data: CheckinCounts }).data;
}

/** Any answer that is not a 5xx and is an error in the envelope (spec §7.1), with no stack trace. */
export function expectClientError(response: ApiResponse): ErrorEnvelope['error'] {
  expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(400);
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
  const error = (response.body as ErrorEnvelope).error;
  expect(typeof error.type, JSON.stringify(response.body)).toBe('string');
  expect(typeof error.code).toBe('string');
  expect(typeof error.message).toBe('string');
  expect(JSON.stringify(response.body)).not.toMatch(/\n\s+at |node_modules/);
  return error;
}

// --- signed codes, read and checked with node:crypto alone -----------------------------------------

/** The parts of `K1.<payload>.<sig>.<keyId>`, decoded. */
export interface ParsedCode {
  payloadText: string;
  payloadBytes: Buffer;
  signature: Buffer;
  keyId: string;
  /** the design's payload: [code, occurrenceId, areaId, seat | null, orderId] */
  payload: unknown;
}

/** Splits and decodes a signed code (failing the test when it is not one). */
export function parseSigned(text: string): ParsedCode {
  const parts = text.split('.');
  expect(parts, text).toHaveLength(4);
  const [version, payload = '', signature = '', keyId = ''] = parts;
  expect(version).toBe('K1');
  for (const part of [payload, signature, keyId]) expect(part, text).toMatch(/^[A-Za-z0-9_-]+$/);
  const payloadBytes = Buffer.from(payload, 'base64url');
  const payloadText = payloadBytes.toString('utf8');
  return { payloadText, payloadBytes, signature: Buffer.from(signature, 'base64url'), keyId, payload: JSON.parse(payloadText) as unknown };
}

/** A signed code put together again from its parts (for tampering). */
export function formatSigned(payloadBytes: Buffer, signature: Buffer, keyId: string): string {
  return `K1.${payloadBytes.toString('base64url')}.${signature.toString('base64url')}.${keyId}`;
}

/** True when `signature` is a valid Ed25519 signature over `payloadBytes` by the listed public key. */
export function verifiesWith(key: TicketKey, payloadBytes: Buffer, signature: Buffer): boolean {
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.publicKey }, format: 'jwk' });
  return verify(null, payloadBytes, publicKey, signature);
}

/** The design's key id: the first 12 characters of base64url(SHA-256(raw public key)). */
export function keyIdOf(publicKey: string): string {
  return createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('base64url').slice(0, 12);
}

/**
 * Verifies a signed code against the listed keys with node:crypto alone: its key id is listed, the signature holds,
 * and the payload names this ticket. Answers the parsed code.
 */
export function expectVerified(text: string, keys: TicketKey[], expected: { code: string; occurrenceId: string; areaId: string; seat: string | null; orderId: string }): ParsedCode {
  const parsed = parseSigned(text);
  const key = keys.find((candidate) => candidate.keyId === parsed.keyId);
  expect(key, `key ${parsed.keyId} in ${JSON.stringify(keys)}`).toBeDefined();
  if (key === undefined) return parsed;
  expect(parsed.signature).toHaveLength(64);
  expect(verifiesWith(key, parsed.payloadBytes, parsed.signature)).toBe(true);
  expect(parsed.payload).toEqual([expected.code, expected.occurrenceId, expected.areaId, expected.seat, expected.orderId]);
  return parsed;
}

/** A well-formed 20-character code (Crockford base32) that nobody sold: random. */
export function randomTicketCode(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  return Array.from(randomBytes(20), (byte) => alphabet[byte % 32]).join('');
}
