import { randomUUID } from 'node:crypto';
import type { OutboxRepo, OutboxRow } from '../outbox-repo';
import type { Async } from '../port-types';
import type { Queryable } from './queryable';

/** PostgreSQL twin of store/outbox-repo.ts: the sync outbox and the sync worker's small state. Runs in the caller's transaction. */

const COLUMNS = `id, kind, order_id AS "orderId", state, idempotency_key AS "idempotencyKey", upstream_cart_id AS "upstreamCartId",
  cart_attempted_at AS "cartAttemptedAt", sent_at AS "sentAt", upstream_order_id AS "upstreamOrderId", attempts,
  next_attempt_at AS "nextAttemptAt", last_error AS "lastError", conflict_code AS "conflictCode", conflict_message AS "conflictMessage",
  conflict_at AS "conflictAt", resolved_note AS "resolvedNote", created_at AS "createdAt"`;

/** How long an entry handed out by ready() stays claimed by the process sending it (default). */
export const OUTBOX_CLAIM_MS = 60_000;

export function createPgOutboxRepo(q: Queryable, options: { claimMs?: number } = {}): Async<OutboxRepo> {
  const claimMs = options.claimMs ?? OUTBOX_CLAIM_MS;
  const listeners = new Set<(kind: OutboxRow['kind']) => void>();
  const one = async (sql: string, values: unknown[] = []): Promise<OutboxRow | undefined> => (await q.query<OutboxRow>(sql, values)).rows[0];
  const run = async (sql: string, values: unknown[]): Promise<undefined> => {
    await q.query(sql, values);
    return undefined;
  };

  return {
    /** adds an entry; listeners are told at once (inside the adding transaction: they only schedule work) */
    async add(kind: OutboxRow['kind'], orderId: string, now: number): Promise<void> {
      await q.query('INSERT INTO outbox (kind, order_id, idempotency_key, created_at) VALUES ($1, $2, $3, $4)', [kind, orderId, randomUUID(), now]);
      for (const listener of listeners) listener(kind);
    },
    /** calls `listener` for every entry added from now on; answers the function that stops it */
    async onAdded(listener: (kind: OutboxRow['kind']) => void): Promise<() => void> {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    next: () => one(`SELECT ${COLUMNS} FROM outbox WHERE state = 'pending' ORDER BY id LIMIT 1`),
    /**
     * Up to `limit` entries due at `now` that may go now, oldest first — and claimed for this process: several
     * processes may run the sync worker on one database, and the sending happens outside any transaction, so a
     * row lock cannot last long enough. The due entries are locked with FOR UPDATE SKIP LOCKED (another process's
     * claim in progress is skipped, never waited for) and their next_attempt_at is pushed `claimMs` ahead, so no
     * other process finds them due until the sender records the outcome (delivered, retryLater, conflict) or dies
     * and the claim lapses. The rows answered are as they were before the claim, as the SQLite twin answers them.
     */
    async ready(now: number, limit: number): Promise<OutboxRow[]> {
      const { rows } = await q.query<OutboxRow>(`
        WITH due AS (
          SELECT ${COLUMNS} FROM outbox o WHERE state = 'pending' AND next_attempt_at <= $1
            AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.order_id = o.order_id AND p.id < o.id AND p.state = 'pending')
          ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED),
        claimed AS (UPDATE outbox SET next_attempt_at = $3 FROM due WHERE outbox.id = due.id AND outbox.state = 'pending')
        SELECT * FROM due ORDER BY id`, [now, limit, now + claimMs]);
      return rows;
    },
    /** when the earliest waiting entry is due (undefined: nothing waits) */
    async nextDue(): Promise<number | undefined> {
      return (await q.query<{ at: number | null }>("SELECT MIN(next_attempt_at) AS at FROM outbox WHERE state = 'pending'")).rows[0]?.at ?? undefined;
    },
    /** when the oldest waiting entry was made (undefined: nothing waits) */
    async oldestWaiting(): Promise<number | undefined> {
      return (await q.query<{ createdAt: number }>(`SELECT created_at AS "createdAt" FROM outbox WHERE state = 'pending' ORDER BY id LIMIT 1`)).rows[0]?.createdAt;
    },
    /** entries delivered after `since`, and when the first of them was */
    async deliveredSince(since: number): Promise<{ n: number; first: number | null }> {
      const { rows } = await q.query<{ n: number; first: number | null }>(
        'SELECT COUNT(*) AS n, MIN(delivered_at) AS first FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at > $1', [since]);
      return rows[0] ?? { n: 0, first: null };
    },
    get: (id: number) => one(`SELECT ${COLUMNS} FROM outbox WHERE id = $1`, [id]),
    orderEntry: (orderId: string) => one(`SELECT ${COLUMNS} FROM outbox WHERE order_id = $1 AND kind = 'order'`, [orderId]),
    async conflicts(): Promise<OutboxRow[]> {
      return (await q.query<OutboxRow>(`SELECT ${COLUMNS} FROM outbox WHERE state = 'conflict' ORDER BY id`)).rows;
    },
    async waiting(): Promise<number> {
      return (await q.query<{ n: number }>("SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending'")).rows[0]?.n ?? 0;
    },
    setUpstreamCart: (id: number, cartId: string | null) => run('UPDATE outbox SET upstream_cart_id = $1 WHERE id = $2', [cartId, id]),
    markCartAttempt: (id: number, now: number) => run('UPDATE outbox SET cart_attempted_at = COALESCE(cart_attempted_at, $1) WHERE id = $2', [now, id]),
    /** when a POST /carts whose answer is unknown may last have made a cart upstream (null: none can have) */
    setCartAttempt: (id: number, at: number | null) => run('UPDATE outbox SET cart_attempted_at = $1 WHERE id = $2', [at, id]),
    markSent: (id: number, now: number) => run('UPDATE outbox SET sent_at = COALESCE(sent_at, $1) WHERE id = $2', [now, id]),
    delivered: (id: number, upstreamOrderId: string | null, now: number) => run(
      "UPDATE outbox SET state = 'delivered', upstream_order_id = COALESCE($1, upstream_order_id), delivered_at = $2, last_error = NULL WHERE id = $3",
      [upstreamOrderId, now, id]),
    retryLater: (id: number, at: number, error: string) => run('UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $1, last_error = $2 WHERE id = $3',
      [at, error.slice(0, 500), id]),
    // In the inbox no earlier cart of the entry can still be pending: a staff retry starts clean.
    conflict: (id: number, code: string, message: string, now: number) => run(`UPDATE outbox SET state = 'conflict', conflict_code = $1,
      conflict_message = $2, conflict_at = $3, attempts = attempts + 1, cart_attempted_at = NULL, sent_at = NULL WHERE id = $4`,
    [code, message.slice(0, 500), now, id]),
    /** a conditional UPDATE: true for the one caller that moved the entry out of `conflict` */
    async requeue(id: number): Promise<boolean> {
      const moved = await q.query("UPDATE outbox SET state = 'pending', attempts = 0, next_attempt_at = 0, last_error = NULL WHERE id = $1 AND state = 'conflict'", [id]);
      return (moved.rowCount ?? 0) > 0;
    },
    async resolve(id: number, note: string): Promise<boolean> {
      const moved = await q.query("UPDATE outbox SET state = 'resolved', resolved_note = $1 WHERE id = $2 AND state = 'conflict'", [note, id]);
      return (moved.rowCount ?? 0) > 0;
    },
    async state(name: string): Promise<string | undefined> {
      return (await q.query<{ value: string }>('SELECT value FROM sync_state WHERE name = $1', [name])).rows[0]?.value;
    },
    setState: (name: string, value: string) => run('INSERT INTO sync_state (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value',
      [name, value]),
  };
}
