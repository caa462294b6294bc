import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './db';
import { isScope, type Scope } from '../domain/scopes';

/**
 * API keys. A key is 256 random bits; only its SHA-256 is stored, so a copy of the database reveals no
 * key. (A slow password hash buys nothing for a key with this much entropy and would cost every request.)
 */

export interface ApiKeyInfo { id: string; name: string; owner: string; scopes: string[]; createdAt: string; revokedAt: string | null }

/** A live key: its id, who its carts and orders belong to (its id, or its role's shared name), its scopes. */
export interface AuthenticatedKey { id: string; owner: string; scopes: string[] }

export interface KeyOptions {
  /**
   * who its carts and orders belong to (default: the key's own id): the name the keys of one role share, or a
   * terminal's name that its replacement keys take over (`npm run keys -- replace`)
   */
  readonly owner?: string;
  /** epoch ms after which the key answers 401 like a revoked one (default: never) */
  readonly expiresAt?: number;
}

const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export function createKeyRepo(db: Db) {
  const insert = db.prepare<[string, string, string, string, string, string | null, number | null]>(
    'INSERT INTO api_keys (id, name, hash, scopes, created_at, owner, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const byHash = db.prepare<[string, number], { id: string; owner: string; scopes: string }>(
    'SELECT id, COALESCE(owner, id) AS owner, scopes FROM api_keys WHERE hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)');
  const all = db.prepare<[], { id: string; name: string; owner: string; scopes: string; createdAt: string; revokedAt: string | null }>(
    'SELECT id, name, COALESCE(owner, id) AS owner, scopes, created_at AS createdAt, revoked_at AS revokedAt FROM api_keys ORDER BY created_at, id');
  const byId = db.prepare<[string], { name: string; owner: string; scopes: string; expiresAt: number | null }>(
    'SELECT name, COALESCE(owner, id) AS owner, scopes, expires_at AS expiresAt FROM api_keys WHERE id = ?');
  const revoke = db.prepare<[string, string]>('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const exists = db.prepare<[string], { id: string }>('SELECT id FROM api_keys WHERE id = ?');
  const revokeNamed = db.prepare<[string, string]>('UPDATE api_keys SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL');

  function create(name: string, scopes: readonly Scope[], options: KeyOptions = {}): { id: string; key: string } {
    const id = `key_${randomBytes(6).toString('hex')}`;
    const key = `kassa_${randomBytes(32).toString('base64url')}`;
    insert.run(id, name, hashKey(key), JSON.stringify(scopes), new Date().toISOString(), options.owner ?? null, options.expiresAt ?? null);
    return { id, key };
  }

  return {
    create,
    /**
     * Rotation: a new key with the old one's name, scopes, expiry and owner (the old key's id when it owned alone),
     * so the orders and carts of the old key stay the new one's; the old key is revoked (if it was not already).
     * undefined for an unknown id.
     */
    replace(id: string): { id: string; key: string; name: string; owner: string; scopes: string[] } | undefined {
      return db.transaction(() => {
        const old = byId.get(id);
        if (!old) return undefined;
        const scopes = parseScopes(old.scopes).filter(isScope);
        const created = create(old.name, scopes, { owner: old.owner, ...(old.expiresAt !== null && { expiresAt: old.expiresAt }) });
        revoke.run(new Date().toISOString(), id);
        return { ...created, name: old.name, owner: old.owner, scopes };
      })();
    },
    /** The live key matching `key`, or undefined for an unknown, revoked or expired one. */
    authenticate(key: string, now: number = Date.now()): AuthenticatedKey | undefined {
      const row = byHash.get(hashKey(key), now);
      return row && { id: row.id, owner: row.owner, scopes: parseScopes(row.scopes) };
    },
    list: (): ApiKeyInfo[] => all.all().map((row) => ({ ...row, scopes: parseScopes(row.scopes) })),
    /** Revokes every live key of that name (the UI's per-start key replaces the previous one). */
    revokeNamed: (name: string): number => revokeNamed.run(new Date().toISOString(), name).changes,
    /** true when the key exists (revoking twice is a no-op). */
    revoke(id: string): boolean {
      revoke.run(new Date().toISOString(), id);
      return exists.get(id) !== undefined;
    },
  };
}

function parseScopes(json: string): string[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((scope): scope is string => typeof scope === 'string') : [];
}

export type KeyRepo = ReturnType<typeof createKeyRepo>;
