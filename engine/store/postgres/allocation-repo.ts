import { createHash } from 'node:crypto';
import type { Async } from '../port-types';
import type { AllocationRepo, AllocationRow, ItemStock } from '../allocation-repo';
import type { Queryable } from './queryable';

/**
 * At a hub: the places granted to each terminal (store/allocation-repo.ts) on PostgreSQL, where several engine
 * processes grant at once. allocations.quantity and inventory_items.allocated stay equal because every method
 * that moves one moves the other in the caller's transaction, and each is atomic on its own:
 *   - `stock` locks the item's row (FOR UPDATE): the grant the caller then plans from it (domain planChange)
 *     cannot be overtaken by another grant, cart or sale of that item before the caller commits;
 *   - `set` is a compare-and-set on the terminal's row (it applies only while the stored quantity is still
 *     `previous`) and moves `allocated` with a conditional UPDATE that never grants more than is left;
 *   - `consume` takes places only while the allocation holds them (quantity >= count);
 *   - `lapse` locks the items of lapsed rows, then the lapsed rows, each in primary-key order (items before
 *     allocations, the order a grant and a hub cart take them, so a lapse closes no deadlock with them) and zeroes
 *     them in the statement that gives their places back: two processes lapsing at once release each place once;
 *   - `request` takes a transaction-level advisory lock on (terminal, key) before reading: a retried request
 *     arriving on two processes at once runs once, the second reads the first's answer after it commits.
 * Text ordering is COLLATE "C" (byte order), as SQLite sorts TEXT.
 */

const COLUMNS = 'terminal_id AS "terminalId", occurrence_id AS "occurrenceId", inventory_item_id AS "inventoryItemId", quantity, expires_at AS "expiresAt"';

/** one statement: lapsed rows locked in key order, zeroed, and their places given back to their items */
const LAPSE = `
  WITH lapsed AS (
    SELECT terminal_id, occurrence_id, inventory_item_id, quantity FROM allocations
    WHERE quantity > 0 AND expires_at <= $1
    ORDER BY terminal_id COLLATE "C", occurrence_id COLLATE "C", inventory_item_id COLLATE "C" FOR UPDATE),
  zeroed AS (
    UPDATE allocations AS a SET quantity = 0 FROM lapsed AS l
    WHERE a.terminal_id = l.terminal_id AND a.occurrence_id = l.occurrence_id AND a.inventory_item_id = l.inventory_item_id)
  UPDATE inventory_items AS i SET allocated = i.allocated - x.q
  FROM (SELECT occurrence_id, inventory_item_id, SUM(quantity) AS q FROM lapsed GROUP BY 1, 2) AS x
  WHERE i.occurrence_id = x.occurrence_id AND i.id = x.inventory_item_id`;

/**
 * The advisory lock key of one terminal's request key: the first 8 bytes of a SHA-256 as a signed 64-bit integer
 * (a string: past 2^53). Two request keys sharing a lock key only wait for each other, nothing worse.
 */
function requestLockKey(terminalId: string, key: string): string {
  return createHash('sha256').update(`allocation_requests\n${terminalId}\n${key}`).digest().readBigInt64BE().toString();
}

export function createPgAllocationRepo(q: Queryable): Async<AllocationRepo> {
  const get = async (terminalId: string, occurrenceId: string, itemId: string) => (await q.query<AllocationRow>(
    `SELECT ${COLUMNS} FROM allocations WHERE terminal_id = $1 AND occurrence_id = $2 AND inventory_item_id = $3`, [terminalId, occurrenceId, itemId])).rows[0];
  /** moves the item's `allocated` by `delta`; a positive move only while that many places are left for everyone */
  const moveAllocated = async (delta: number, occurrenceId: string, itemId: string) => {
    const moved = await q.query(`UPDATE inventory_items SET allocated = allocated + $1
      WHERE occurrence_id = $2 AND id = $3 AND ($1 <= 0 OR capacity - held - sold - allocated >= $1)`, [delta, occurrenceId, itemId]);
    if (moved.rowCount !== 1) throw new Error(`allocating ${delta} of ${itemId} exceeds what is left`);
  };

  return {
    async lapse(now) {
      // one look into the partial index first: this runs before every cart
      if ((await q.query('SELECT 1 FROM allocations WHERE quantity > 0 AND expires_at <= $1 LIMIT 1', [now])).rows.length === 0) return;
      // the items first, in key order, as a grant (stock, then set) and a cart (its holds, then consume) take them
      await q.query(`SELECT 1 FROM inventory_items WHERE (occurrence_id, id) IN
        (SELECT occurrence_id, inventory_item_id FROM allocations WHERE quantity > 0 AND expires_at <= $1)
        ORDER BY occurrence_id COLLATE "C", id COLLATE "C" FOR UPDATE`, [now]);
      await q.query(LAPSE, [now]);
    },
    stock: async (occurrenceId, itemId) => (await q.query<ItemStock>(`
      SELECT i.capacity, i.held, i.sold, i.allocated, a.seating, i.active * a.active AS active
      FROM inventory_items i JOIN areas a ON a.occurrence_id = i.occurrence_id AND a.id = i.area_id
      WHERE i.occurrence_id = $1 AND i.id = $2 FOR UPDATE OF i`, [occurrenceId, itemId])).rows[0],
    get,
    ofTerminal: async (terminalId) => (await q.query<AllocationRow>(`SELECT ${COLUMNS} FROM allocations WHERE terminal_id = $1 AND quantity > 0
      ORDER BY occurrence_id COLLATE "C", inventory_item_id COLLATE "C"`, [terminalId])).rows,
    async set(row, previous) {
      const written = await q.query(`INSERT INTO allocations (terminal_id, occurrence_id, inventory_item_id, quantity, expires_at) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (terminal_id, occurrence_id, inventory_item_id) DO UPDATE SET quantity = excluded.quantity, expires_at = excluded.expires_at
        WHERE allocations.quantity = $6`, [row.terminalId, row.occurrenceId, row.inventoryItemId, row.quantity, row.expiresAt, previous]);
      if (written.rowCount !== 1) throw new Error(`allocation of ${row.inventoryItemId} for ${row.terminalId} changed underneath (not ${previous})`);
      if (row.quantity !== previous) await moveAllocated(row.quantity - previous, row.occurrenceId, row.inventoryItemId);
    },
    async consume(terminalId, occurrenceId, itemId, count) {
      if (count <= 0) return;
      const taken = await q.query(`UPDATE allocations SET quantity = quantity - $4
        WHERE terminal_id = $1 AND occurrence_id = $2 AND inventory_item_id = $3 AND quantity >= $4`, [terminalId, occurrenceId, itemId, count]);
      if (taken.rowCount !== 1) throw new Error(`allocation of ${itemId} for ${terminalId} is short of ${count}`);
      await moveAllocated(-count, occurrenceId, itemId);
    },
    async renew(terminalId, until, now) {
      await q.query('UPDATE allocations SET expires_at = $1 WHERE terminal_id = $2 AND quantity > 0 AND expires_at > $3', [until, terminalId, now]);
    },
    async request(terminalId, key) {
      // a statement of its own: the read after it sees what a request holding the lock committed
      await q.query('SELECT pg_advisory_xact_lock($1::bigint)', [requestLockKey(terminalId, key)]);
      return (await q.query<{ bodyHash: string; answer: string }>(
        'SELECT body_hash AS "bodyHash", answer FROM allocation_requests WHERE terminal_id = $1 AND key = $2', [terminalId, key])).rows[0];
    },
    async keepRequest(terminalId, key, bodyHash, answer, now) {
      await q.query('INSERT INTO allocation_requests (terminal_id, key, body_hash, answer, created_at) VALUES ($1, $2, $3, $4, $5)',
        [terminalId, key, bodyHash, JSON.stringify(answer), now]);
    },
    async purgeRequests(olderThan) {
      await q.query('DELETE FROM allocation_requests WHERE created_at <= $1', [olderThan]);
    },
  };
}
