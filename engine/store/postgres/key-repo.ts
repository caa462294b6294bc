import { createHash, randomBytes } from 'node:crypto';
import type { Async } from '../port-types';
import type { KeyOptions, KeyRepo } from '../key-repo';
import { isScope, type Scope } from '../../domain/scopes';
import type { Queryable } from './queryable';

/**
 * API keys on PostgreSQL: only a key's SHA-256 is stored (store/key-repo.ts says why). Every method is one
 * statement, atomic on its own, except `replace`, which on SQLite opens its own transaction: here it runs on the
 * given Queryable and its caller wraps it in a transaction; it locks the old key's row (`FOR UPDATE`) first,
 * so two replacements of one key on two processes run one after the other.
 */

const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

interface ListRow { id: string; name: string; owner: string; scopes: string; createdAt: string; revokedAt: string | null }

export function createPgKeyRepo(q: Queryable): Async<KeyRepo> {
  async function create(name: string, scopes: readonly Scope[], options: KeyOptions = {}): Promise<{ id: string; key: string }> {
    const id = `key_${randomBytes(6).toString('hex')}`;
    const key = `kassa_${randomBytes(32).toString('base64url')}`;
    await q.query('INSERT INTO api_keys (id, name, hash, scopes, created_at, owner, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [id, name, hashKey(key), JSON.stringify(scopes), new Date().toISOString(), options.owner ?? null, options.expiresAt ?? null]);
    return { id, key };
  }
  const revoke = (id: string) => q.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [new Date().toISOString(), id]);

  return {
    create,
    /** Rotation (store/key-repo.ts); in the caller's transaction, the old key's row locked first. */
    async replace(id) {
      const old = (await q.query<{ name: string; owner: string; scopes: string; expiresAt: number | null }>(
        'SELECT name, COALESCE(owner, id) AS owner, scopes, expires_at AS "expiresAt" FROM api_keys WHERE id = $1 FOR UPDATE', [id])).rows[0];
      if (!old) return undefined;
      const scopes = parseScopes(old.scopes).filter(isScope);
      const created = await create(old.name, scopes, { owner: old.owner, ...(old.expiresAt !== null && { expiresAt: old.expiresAt }) });
      await revoke(id);
      return { ...created, name: old.name, owner: old.owner, scopes };
    },
    async authenticate(key, now = Date.now()) {
      const row = (await q.query<{ id: string; owner: string; scopes: string }>(
        'SELECT id, COALESCE(owner, id) AS owner, scopes FROM api_keys WHERE hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)',
        [hashKey(key), now])).rows[0];
      return row && { id: row.id, owner: row.owner, scopes: parseScopes(row.scopes) };
    },
    // COLLATE "C": byte order, as SQLite's BINARY collation sorts, whatever the database's locale
    list: async () => (await q.query<ListRow>(`SELECT id, name, COALESCE(owner, id) AS owner, scopes, created_at AS "createdAt", revoked_at AS "revokedAt"
      FROM api_keys ORDER BY created_at COLLATE "C", id COLLATE "C"`)).rows.map((row) => ({ ...row, scopes: parseScopes(row.scopes) })),
    revokeNamed: async (name) =>
      (await q.query('UPDATE api_keys SET revoked_at = $1 WHERE name = $2 AND revoked_at IS NULL', [new Date().toISOString(), name])).rowCount ?? 0,
    async revoke(id) {
      await revoke(id);
      return (await q.query('SELECT id FROM api_keys WHERE id = $1', [id])).rows.length > 0;
    },
  };
}

function parseScopes(json: string): string[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((scope): scope is string => typeof scope === 'string') : [];
}
