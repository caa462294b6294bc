import { createHash } from 'node:crypto';
import { fillRandom, randomBytesFromPool } from '../shared/random-pool';

/**
 * Codes printed on tickets and gift cards: 20 characters of Crockford base32, upper case and without I, L, O,
 * U, so staff can read them out and type them without ambiguity.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 20;

/** A gift card's code: 20 random characters (100 bits). */
export function redeemableCode(): string {
  return encode(randomBytesFromPool(LENGTH));
}

/** one character per byte, from its low 5 bits */
function encode(bytes: Uint8Array): string {
  let code = '';
  for (const byte of bytes) code += ALPHABET[byte & 31] ?? '';
  return code;
}

/**
 * A ticket's code: 20 characters like every redeemable code, the first two named by its show — 10 bits of a
 * SHA-256 of the occurrence id — and the other 18 random (90 bits, as unguessable as a code needs to be).
 *
 * Why (issue #16, flat growth): the codes' unique index is the one index a sale writes at a random place. At
 * 2,000,000 tickets each new code dirtied a leaf page anywhere in a ~60 MB index, which SQLite's page cache
 * does not hold, so a sale cost more the more tickets were ever sold: cart + checkout took 13 % more CPU per
 * request with 1,000,000 orders in the database than with none (A/B, the ticket insert alone 0.01 → 0.16 ms).
 * With its show's prefix, a sale's codes go into the 1/1,024th of the index where that show's tickets are, and
 * those pages stay in the cache. The prefix tells nothing the ticket does not print: which show it is for.
 */
export function ticketCode(occurrenceId: string): string {
  return ticketCodes(occurrenceId)();
}

/** Ticket codes for one show: its prefix hashed once, for all the tickets of a sale. */
export function ticketCodes(occurrenceId: string): () => string {
  const digest = createHash('sha256').update(occurrenceId).digest();
  const show = ((digest[0] ?? 0) << 2) | ((digest[1] ?? 0) >> 6); // the digest's first 10 bits
  return () => {
    const bytes = Buffer.allocUnsafe(LENGTH);
    bytes[0] = show >> 5;
    bytes[1] = show & 31;
    fillRandom(bytes, 2, LENGTH - 2);
    return encode(bytes);
  };
}
