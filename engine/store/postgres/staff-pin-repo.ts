import type { Async } from '../port-types';
import type { createStaffPinRepo } from '../staff-pin-repo';
import type { Queryable } from './queryable';

type StaffPinRepo = ReturnType<typeof createStaffPinRepo>;

/**
 * The staff PIN's scrypt hash (staff/pin-source.ts) on PostgreSQL: one row at most (id = 1). `save` keeps the
 * first hash saved and answers the one kept: two processes that both make a PIN at their first start end with
 * one PIN, the first one's, and the other learns it (contract §16: the processes sharing a database are one engine).
 */
export function createPgStaffPinRepo(q: Queryable): Async<StaffPinRepo> {
  return {
    hash: async () => (await q.query<{ hash: string }>('SELECT hash FROM staff_pin WHERE id = 1')).rows[0]?.hash,
    async save(hash, now) {
      await q.query('INSERT INTO staff_pin (id, hash, created_at) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING', [hash, now]);
      const kept = (await q.query<{ hash: string }>('SELECT hash FROM staff_pin WHERE id = 1')).rows[0]?.hash;
      if (kept === undefined) throw new Error('the staff PIN vanished as it was saved');
      return kept;
    },
  };
}
