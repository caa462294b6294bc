import type { Db } from './db';

/** The staff PIN's scrypt hash when the engine made the PIN itself (staff/pin-source.ts). One row at most. */
export function createStaffPinRepo(db: Db) {
  const get = db.prepare<[], { hash: string }>('SELECT hash FROM staff_pin WHERE id = 1');
  const insert = db.prepare<[string, number]>('INSERT INTO staff_pin (id, hash, created_at) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING');
  return {
    hash: (): string | undefined => get.get()?.hash,
    /** keeps the first hash saved and answers the one kept (a PIN already there is never replaced) */
    save: (hash: string, now: number): string => {
      insert.run(hash, now);
      const kept = get.get()?.hash;
      if (kept === undefined) throw new Error('the staff PIN vanished as it was saved');
      return kept;
    },
  };
}
