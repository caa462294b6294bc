import type { Async } from '../port-types';
import type { createStaffPinRepo } from '../staff-pin-repo';
import type { Queryable } from './queryable';

type StaffPinRepo = ReturnType<typeof createStaffPinRepo>;

/**
 * The staff PIN's scrypt hash (staff/pin-source.ts) on PostgreSQL: one row at most (id = 1). `save` is a plain
 * INSERT as on SQLite, so a second save fails on the primary key instead of replacing the PIN: two processes that
 * both make a PIN at first start end with one, the other's statement failing (its caller reads the hash again).
 */
export function createPgStaffPinRepo(q: Queryable): Async<StaffPinRepo> {
  return {
    hash: async () => (await q.query<{ hash: string }>('SELECT hash FROM staff_pin WHERE id = 1')).rows[0]?.hash,
    async save(hash, now) {
      await q.query('INSERT INTO staff_pin (id, hash, created_at) VALUES (1, $1, $2)', [hash, now]);
    },
  };
}
