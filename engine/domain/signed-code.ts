/**
 * Signed ticket codes (issue #26, contract §15), pure: their text format, without any cryptography (the key ring,
 * engine/tickets/key-ring.ts, signs and verifies). A signed code is
 * `K1.` + base64url(payload) + `.` + base64url(64-byte Ed25519 signature over the payload bytes) + `.` + keyId,
 * the payload being the UTF-8 of the JSON array `[code, occurrenceId, areaId, seat, orderId]` (seat: the seat's
 * label, or null in an area without assigned seats). base64url without padding, and only its canonical spelling.
 */

/** What a signed code says of its ticket. */
export interface SignedTicket {
  readonly code: string;
  readonly occurrenceId: string;
  readonly areaId: string;
  readonly seat: string | null;
  readonly orderId: string;
}

/** A signed code taken apart (nothing checked but its form). */
export interface ParsedSignedCode {
  readonly payload: SignedTicket;
  readonly payloadBytes: Uint8Array;
  readonly signature: Uint8Array;
  readonly keyId: string;
}

/** the format's prefix (its version) */
export const SIGNED_CODE_PREFIX = 'K1.';
/** an Ed25519 signature's length */
export const SIGNATURE_BYTES = 64;
/** a key id: the first 12 characters of base64url(SHA-256(raw public key)) */
export const KEY_ID_LENGTH = 12;
/** the longest signed code read (a longer text is not one): POST /checkins takes up to 600 characters */
export const MAX_SIGNED_CODE_LENGTH = 600;

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** base64url (no padding) of bytes. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of a base64url text without padding; undefined unless it is that, spelled canonically. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  // the unused low bits of the last character must be zero: one spelling per byte string
  return toBase64Url(bytes) === text ? bytes : undefined;
}

/** The payload's bytes for a ticket: what is signed. */
export function signedPayload(ticket: SignedTicket): Uint8Array {
  return new TextEncoder().encode(JSON.stringify([ticket.code, ticket.occurrenceId, ticket.areaId, ticket.seat, ticket.orderId]));
}

/** The signed code of a payload, its signature and the key id that made it. */
export function formatSignedCode(payloadBytes: Uint8Array, signatureBytes: Uint8Array, keyId: string): string {
  return `${SIGNED_CODE_PREFIX}${toBase64Url(payloadBytes)}.${toBase64Url(signatureBytes)}.${keyId}`;
}

/** Whether a text is meant as a signed code (its prefix); it may still be malformed. */
export function isSignedCode(text: string): boolean {
  return text.startsWith(SIGNED_CODE_PREFIX);
}

/** A signed code taken apart; undefined when it is not well-formed (the signature is not checked here). */
export function parseSignedCode(text: string): ParsedSignedCode | undefined {
  if (!isSignedCode(text) || text.length > MAX_SIGNED_CODE_LENGTH) return undefined;
  const parts = text.slice(SIGNED_CODE_PREFIX.length).split('.');
  if (parts.length !== 3) return undefined;
  const [payloadText = '', signatureText = '', keyId = ''] = parts;
  if (keyId.length !== KEY_ID_LENGTH || !BASE64URL.test(keyId)) return undefined;
  const payloadBytes = fromBase64Url(payloadText);
  const signature = fromBase64Url(signatureText);
  if (payloadBytes === undefined || signature?.length !== SIGNATURE_BYTES) return undefined;
  const payload = readPayload(payloadBytes);
  return payload && { payload, payloadBytes, signature, keyId };
}

function readPayload(bytes: Uint8Array): SignedTicket | undefined {
  let fields: unknown;
  try {
    fields = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
  if (!Array.isArray(fields) || fields.length !== 5) return undefined;
  const [code, occurrenceId, areaId, seat, orderId]: unknown[] = fields;
  if (typeof code !== 'string' || typeof occurrenceId !== 'string' || typeof areaId !== 'string' || typeof orderId !== 'string') return undefined;
  if (seat !== null && typeof seat !== 'string') return undefined;
  if ([code, occurrenceId, areaId, orderId].some((field) => field === '')) return undefined;
  return { code, occurrenceId, areaId, seat, orderId };
}
