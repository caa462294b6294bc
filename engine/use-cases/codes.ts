import { randomBytesFromPool } from './random-pool';

/**
 * Codes printed on tickets and gift cards: 20 characters of Crockford base32 (100 random bits), upper
 * case and without I, L, O, U, so staff can read them out and type them without ambiguity.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function redeemableCode(): string {
  const bytes = randomBytesFromPool(20);
  let code = '';
  for (let i = 0; i < 20; i++) code += ALPHABET[(bytes[i] ?? 0) & 31];
  return code;
}
