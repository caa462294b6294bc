import { randomBytes, timingSafeEqual } from 'node:crypto';
import { channelSecret, sha256, type ChannelInfo, type ChannelRepo } from '../channel-repo';
import type { Async } from '../port-types';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/channel-repo.ts: channels of the legacy v1 interface. No secret is stored; each is
 * derived from the install's master key by the same function as on SQLite (channelSecret). Every write is one
 * statement; revoking twice is a no-op (conditional UPDATE).
 */
export function createPgChannelRepo(q: Queryable, masterKey: Buffer): Async<ChannelRepo> {
  return {
    async create(name: string): Promise<{ id: string; secret: string }> {
      const id = `ch_${randomBytes(9).toString('base64url')}`;
      const secret = channelSecret(masterKey, id);
      await q.query('INSERT INTO channels (id, name, secret_hash, created_at) VALUES ($1, $2, $3, $4)', [id, name, sha256(secret), new Date().toISOString()]);
      return { id, secret };
    },
    /**
     * The secret of a live channel, or undefined for an unknown or revoked one, or one whose secret as issued
     * does not match this install's master key (`mismatch`: the key file was replaced).
     */
    async secret(id: string): Promise<{ secret: string } | { mismatch: true } | undefined> {
      const { rows } = await q.query<{ secretHash: string }>('SELECT secret_hash AS "secretHash" FROM channels WHERE id = $1 AND revoked_at IS NULL', [id]);
      const row = rows[0];
      if (!row) return undefined;
      const secret = channelSecret(masterKey, id);
      const same = timingSafeEqual(Buffer.from(sha256(secret), 'hex'), Buffer.from(row.secretHash, 'hex'));
      return same ? { secret } : { mismatch: true };
    },
    async list(): Promise<ChannelInfo[]> {
      return (await q.query<ChannelInfo>(`SELECT id, name, created_at AS "createdAt", revoked_at AS "revokedAt" FROM channels
        ORDER BY created_at COLLATE "C", id COLLATE "C"`)).rows;
    },
    /** true when the channel exists (revoking twice is a no-op). */
    async revoke(id: string): Promise<boolean> {
      await q.query('UPDATE channels SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [new Date().toISOString(), id]);
      return (await q.query('SELECT id FROM channels WHERE id = $1', [id])).rows.length > 0;
    },
  };
}
