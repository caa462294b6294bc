import { randomBytesFromPool } from './random-pool';

/**
 * Time-ordered internal keys. Orders, tickets, payment attempts, cart lines and carts are primary keys of
 * tables that grow with every sale; random keys land all over their B-trees, so inserts into a table of a
 * million orders touch cold pages and the checkout slows as the venue sells. These keys start with the time
 * (milliseconds), so new rows append at the right edge of each index, and end with 80 random bits, so they stay
 * unguessable and unique across terminals. To clients they are opaque strings, as before: nothing parses them.
 */

/** Crockford's base32: its alphabet is in ASCII order, so the text sorts as the bytes do (base64url does not). */
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 48-bit milliseconds then 80 random bits, 26 characters of Crockford base32 (the ULID layout). */
export function timeOrderedId(now: number = Date.now()): string {
  let text = '';
  let time = Math.max(0, Math.floor(now));
  for (let i = 0; i < 10; i++) {
    text = BASE32[time % 32] + text;
    time = Math.floor(time / 32);
  }
  const random = randomBytesFromPool(10);
  // 80 bits = 16 groups of 5 bits
  let bits = 0;
  let value = 0;
  for (const byte of random) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      text += BASE32[(value >> bits) & 31];
    }
    value &= (1 << bits) - 1;
  }
  return text;
}

/** A UUID of version 7 (RFC 9562): 48-bit milliseconds, version and variant bits, 74 random bits. */
export function uuidV7(now: number = Date.now()): string {
  const bytes = randomBytesFromPool(16);
  const ms = Math.max(0, Math.floor(now));
  // 48-bit big-endian timestamp: high 16 bits, then low 32 bits
  bytes.writeUInt16BE(Math.floor(ms / 2 ** 32) & 0xffff, 0);
  bytes.writeUInt32BE(ms >>> 0, 2);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
