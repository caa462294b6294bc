import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/**
 * The staff PIN — the desktop kiosk's staff exit and the box office's sign-in (POST /staff-sessions) — kept only
 * as an scrypt hash: `scrypt$<salt>$<hash>` (base64url). One implementation for the engine and Electron.
 */
export function hashPin(pin: string): string {
  if (!/^\d{4,12}$/.test(pin)) throw new Error('a staff PIN is 4 to 12 digits');
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64url')}$${scryptSync(pin, salt, 32).toString('base64url')}`;
}

/**
 * Against guessing: after 5 wrong PINs in a row, every try is refused for 5 minutes (and again after each
 * further wrong PIN once the lock ends).
 */
export function createPinGuard(limit = 5, lockMs = 5 * 60 * 1000) {
  let failures = 0;
  let lockedUntil = 0;
  return {
    locked: (now: number): boolean => now < lockedUntil,
    /** ms until the lock ends (0 when not locked) */
    lockedFor: (now: number): number => Math.max(0, lockedUntil - now),
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
