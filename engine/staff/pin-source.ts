import { randomInt } from 'node:crypto';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Repos } from '../store/port';
import { hashPin } from './pin';

/** Where the box office's staff PIN comes from (docs/security.md). */
export const STAFF_PIN_FILE = 'staff-pin.txt';

/**
 * The staff PIN's hash: the one configured (startEngine's `staffPinHash`, which `serve` fills from
 * KASSA_STAFF_PIN_HASH or --staff-pin-file, and Electron from its settings), else the one this engine made at
 * its first start. With neither, a random 6-digit PIN is made now: its hash kept in the database, the PIN
 * itself written to DATA/staff-pin.txt (mode 0600, this user's only) and never logged; `created` names the file.
 * Several processes starting at once on one PostgreSQL database: the first PIN saved is the one all of them use.
 */
export async function staffPinHash(repo: Repos['staffPins'], dataDir: string, configured: string | undefined, now: number): Promise<{ hash: string; created?: string }> {
  if (configured !== undefined) return { hash: configured };
  const kept = await repo.hash();
  if (kept !== undefined) return { hash: kept };
  const pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const file = join(dataDir, STAFF_PIN_FILE);
  // the file first: a crash between the two leaves no hash whose PIN nobody can read (the next start makes another)
  writeFileSync(file, `${pin}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // a file left from an earlier database keeps its mode otherwise
  const hash = hashPin(pin);
  const saved = await repo.save(hash, now);
  // Another engine process sharing the database (contract §16) made its PIN first: that one is the engine's,
  // and the file of this one, never valid, goes.
  if (saved !== hash) {
    rmSync(file, { force: true });
    return { hash: saved };
  }
  return { hash, created: file };
}
