import type { Db } from './db';

/** The staff PIN's scrypt hash when the engine made the PIN itself (staff/pin-source.ts). One row at most. */
export function createStaffPinRepo(db: Db) {
  const get = db.prepare<[], { hash: string }>('SELECT hash FROM staff_pin WHERE id = 1');
  const insert = db.prepare<[string, number]>('INSERT INTO staff_pin (id, hash, created_at) VALUES (1, ?, ?)');
  return {
    hash: (): string | undefined => get.get()?.hash,
    save: (hash: string, now: number): void => void insert.run(hash, now),
  };
}
