import type { StaffSession } from '../contract/staff';
import { EngineError } from '../domain/errors';
import { ROLE_SCOPES, type Caller } from '../domain/scopes';
import type { Repos } from '../store/port';
import { verifyPin, type createPinGuard } from './pin';

/**
 * Staff sign-in (issue #22): the box office's key is handed out only for the staff PIN. Each sign-in makes a
 * key of the box-office role (ROLE_SCOPES.boxOffice: never admin, never catalog:write), stored hashed like
 * every key, that lapses after 12 hours — a long shift — or when staff sign out. It lives in the database, so
 * an engine restart mid-shift signs nobody out. Every staff key shares one owner, so a new sign-in (after the
 * old key lapsed) goes on with the sale on screen.
 */
export const STAFF_SESSION_MS = 12 * 3600 * 1000;
export const STAFF_OWNER = 'box-office';
const STAFF_KEY_NAME = 'staff-session';


export interface StaffSignIn {
  readonly keys: Repos['keys'];
  readonly pinHash: string;
  readonly guard: ReturnType<typeof createPinGuard>;
  readonly now: () => number;
}

/** A wrong PIN answers 401 INVALID_STAFF_PIN; the fifth in a row locks the sign-in: 429 with Retry-After, for 5 minutes. */
export async function signIn(deps: StaffSignIn, pin: string): Promise<StaffSession> {
  const now = deps.now();
  const locked = (): EngineError => new EngineError('RATE_LIMIT_EXCEEDED', { details: { retryAfter: Math.max(1, Math.ceil(deps.guard.lockedFor(now) / 1000)) } });
  if (deps.guard.locked(now)) throw locked();
  if (!verifyPin(pin, deps.pinHash)) {
    deps.guard.failed(now);
    if (deps.guard.locked(now)) throw locked();
    throw new EngineError('INVALID_STAFF_PIN', { param: 'pin' });
  }
  deps.guard.succeeded();
  const expiresAt = now + STAFF_SESSION_MS;
  const scopes = ROLE_SCOPES.boxOffice;
  const { key } = await deps.keys.create(STAFF_KEY_NAME, scopes, { owner: STAFF_OWNER, expiresAt });
  return { apiKey: key, role: 'box-office', scopes: [...scopes], expiresAt: new Date(expiresAt).toISOString() };
}

/** Signing out revokes the calling staff key; any other key has no staff session to end (404). */
export async function signOut(keys: Repos['keys'], caller: Caller): Promise<void> {
  if (caller.owner !== STAFF_OWNER) throw new EngineError('RESOURCE_NOT_FOUND');
  await keys.revoke(caller.keyId);
}
