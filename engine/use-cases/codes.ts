import { randomBytes } from 'node:crypto';

/**
 * Codes printed on tickets and gift cards: 20 characters of Crockford base32 (100 random bits), upper
 * case and without I, L, O, U, so staff can read them out and type them without ambiguity.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function redeemableCode(): string {
  return [...randomBytes(20)].map((byte) => ALPHABET[byte & 31]).join('');
}
