import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** The kiosk's staff-exit PIN, kept only as an scrypt hash: `scrypt$<salt>$<hash>` (base64url). */
export function hashPin(pin: string): string {
  if (!/^\d{4,12}$/.test(pin)) throw new Error('a staff PIN is 4 to 12 digits');
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64url')}$${scryptSync(pin, salt, 32).toString('base64url')}`;
}

/**
 * Against guessing at a kiosk: after 5 wrong PINs in a row, every try is refused for 5 minutes (and again
 * after each further wrong PIN once the lock ends).
 */
export function createPinGuard(limit = 5, lockMs = 5 * 60 * 1000) {
  let failures = 0;
  let lockedUntil = 0;
  return {
    locked: (now: number): boolean => now < lockedUntil,
    failed(now: number): void {
      failures += 1;
      if (failures >= limit) lockedUntil = now + lockMs;
    },
    succeeded(): void {
      failures = 0;
    },
  };
}

export function verifyPin(pin: string, stored: string | undefined): boolean {
  const [scheme, salt, hash] = stored?.split('$') ?? [];
  if (scheme !== 'scrypt' || !salt || !hash || typeof pin !== 'string' || pin.length > 64) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = scryptSync(pin, Buffer.from(salt, 'base64url'), expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
