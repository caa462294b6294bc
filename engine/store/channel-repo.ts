import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db';
import type { Async } from './port-types';

/**
 * Channels of the legacy v1 interface (contract §11). A v1 checksum is an HMAC keyed with the channel's
 * secret, so the server needs the secret itself at every request: a one-way hash, as for API keys, cannot
 * check it. Instead no secret is stored at all: each is derived as HMAC-SHA256(master key, channel id),
 * where the master key is 256 random bits in `channel-master.key` in the data folder, readable by the
 * engine's user only (0600). A copy of the database alone reveals no secret; the database keeps only the
 * SHA-256 of each secret as issued (as for keys), which also tells a replaced master key from a wrong
 * checksum. Revoking a channel is a flag; a new secret means a new channel.
 */

export const MASTER_KEY_FILE = 'channel-master.key';

export interface ChannelInfo { id: string; name: string; createdAt: string; revokedAt: string | null }

/** hex SHA-256, as kept in channels.secret_hash (shared by both adapters) */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The install's master key, made on first use. Written exclusively (`wx`), so two processes never disagree. */
export function loadMasterKey(dataDir: string): Buffer {
  const path = join(dataDir, MASTER_KEY_FILE);
  try {
    writeFileSync(path, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
  }
  chmodSync(path, 0o600);
  const text = readFileSync(path, 'utf8').trim();
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) throw new Error(`${path} is not a channel master key (43 base64url characters)`);
  return Buffer.from(text, 'base64url');
}

/** a channel's secret: HMAC-SHA256(master key, channel id), derived the same by both adapters */
export const channelSecret = (masterKey: Buffer, id: string): string => `chs_${createHmac('sha256', masterKey).update(id).digest('base64url')}`;

export function createChannelRepo(db: Db, masterKey: Buffer) {
  const insert = db.prepare('INSERT INTO channels (id, name, secret_hash, created_at) VALUES (?, ?, ?, ?)');
  const live = db.prepare<[string], { id: string; secretHash: string }>('SELECT id, secret_hash AS secretHash FROM channels WHERE id = ? AND revoked_at IS NULL');
  const all = db.prepare<[], ChannelInfo>('SELECT id, name, created_at AS createdAt, revoked_at AS revokedAt FROM channels ORDER BY created_at, id');
  const revoke = db.prepare<[string, string]>('UPDATE channels SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const exists = db.prepare<[string], { id: string }>('SELECT id FROM channels WHERE id = ?');
  const secretOf = (id: string): string => channelSecret(masterKey, id);

  return {
    create(name: string): { id: string; secret: string } {
      const id = `ch_${randomBytes(9).toString('base64url')}`;
      const secret = secretOf(id);
      insert.run(id, name, sha256(secret), new Date().toISOString());
      return { id, secret };
    },
    /**
     * The secret of a live channel, or undefined for an unknown or revoked one, or one whose secret as issued
     * does not match this install's master key (`mismatch`: the key file was replaced).
     */
    secret(id: string): { secret: string } | { mismatch: true } | undefined {
      const row = live.get(id);
      if (!row) return undefined;
      const secret = secretOf(id);
      const same = timingSafeEqual(Buffer.from(sha256(secret), 'hex'), Buffer.from(row.secretHash, 'hex'));
      return same ? { secret } : { mismatch: true };
    },
    list: (): ChannelInfo[] => all.all(),
    /** true when the channel exists (revoking twice is a no-op). */
    revoke(id: string): boolean {
      revoke.run(new Date().toISOString(), id);
      return exists.get(id) !== undefined;
    },
  };
}

export type ChannelRepo = ReturnType<typeof createChannelRepo>;

/**
 * A master key's public name: the first 12 hex digits of its SHA-256. Two copies of one key file show the same
 * fingerprint, two different keys differ; it reveals nothing of the key (a hash of 256 random bits).
 */
export const masterKeyFingerprint = (masterKey: Buffer): string => createHash('sha256').update(masterKey).digest('hex').slice(0, 12);

/**
 * The live channels whose secret as issued does not derive from the master key `channels` was opened with: made
 * by a process with another `channel-master.key` (on PostgreSQL every engine process and the keys command must
 * share one file; a replaced file breaks every channel). Their checksums fail here.
 */
export async function channelsOfAnotherKey(channels: Async<ChannelRepo>): Promise<string[]> {
  const foreign: string[] = [];
  for (const channel of await channels.list()) {
    if (channel.revokedAt !== null) continue;
    const found = await channels.secret(channel.id);
    if (found !== undefined && 'mismatch' in found) foreign.push(channel.id);
  }
  return foreign;
}
