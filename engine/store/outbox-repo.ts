import { randomUUID } from 'node:crypto';
import type { Db } from './db';

/** The sync outbox and the sync worker's small state. Every method runs in the caller's transaction. */

export interface OutboxRow {
  id: number;
  /** `gift-card-release`: a terminal checkout failed after its gift-card parts were held at the hub (issue #24) */
  kind: 'order' | 'cancel' | 'gift-card-release';
  /** the order; for a `gift-card-release`, the payment attempt whose hold goes (the hold's reference at the hub) */
  orderId: string;
  state: 'pending' | 'delivered' | 'conflict' | 'resolved';
  idempotencyKey: string;
  upstreamCartId: string | null;
  cartAttemptedAt: number | null;
  /** first sent to a hub's import (its answer may have been lost) */
  sentAt: number | null;
  upstreamOrderId: string | null;
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  conflictCode: string | null;
  conflictMessage: string | null;
  conflictAt: number | null;
  resolvedNote: string | null;
  createdAt: number;
}

const COLUMNS = `id, kind, order_id AS orderId, state, idempotency_key AS idempotencyKey, upstream_cart_id AS upstreamCartId,
  cart_attempted_at AS cartAttemptedAt, sent_at AS sentAt, upstream_order_id AS upstreamOrderId, attempts, next_attempt_at AS nextAttemptAt, last_error AS lastError,
  conflict_code AS conflictCode, conflict_message AS conflictMessage, conflict_at AS conflictAt, resolved_note AS resolvedNote,
  created_at AS createdAt`;

export function createOutboxRepo(db: Db) {
  const insert = db.prepare<[string, string, string, number]>('INSERT INTO outbox (kind, order_id, idempotency_key, created_at) VALUES (?, ?, ?, ?)');
  const next = db.prepare<[], OutboxRow>(`SELECT ${COLUMNS} FROM outbox WHERE state = 'pending' ORDER BY id LIMIT 1`);
  // Due entries in the order made, but never one whose order has an earlier entry still waiting (a
  // cancellation waits for its order).
  const ready = db.prepare<[number, number], OutboxRow>(`SELECT ${COLUMNS} FROM outbox o WHERE state = 'pending' AND next_attempt_at <= ?
    AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.order_id = o.order_id AND p.id < o.id AND p.state = 'pending')
    ORDER BY id LIMIT ?`);
  const nextDue = db.prepare<[], { at: number | null }>(`SELECT MIN(next_attempt_at) AS at FROM outbox WHERE state = 'pending'`);
  const oldest = db.prepare<[], { createdAt: number }>(`SELECT created_at AS createdAt FROM outbox WHERE state = 'pending' ORDER BY id LIMIT 1`);
  const deliveredSince = db.prepare<[number], { n: number; first: number | null }>(
    `SELECT COUNT(*) AS n, MIN(delivered_at) AS first FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at > ?`);
  const byId = db.prepare<[number], OutboxRow>(`SELECT ${COLUMNS} FROM outbox WHERE id = ?`);
  const orderEntry = db.prepare<[string], OutboxRow>(`SELECT ${COLUMNS} FROM outbox WHERE order_id = ? AND kind = 'order'`);
  const conflicts = db.prepare<[], OutboxRow>(`SELECT ${COLUMNS} FROM outbox WHERE state = 'conflict' ORDER BY id`);
  const waiting = db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending'`);
  const setCart = db.prepare<[string | null, number]>('UPDATE outbox SET upstream_cart_id = ? WHERE id = ?');
  const markCartAttempt = db.prepare<[number, number]>('UPDATE outbox SET cart_attempted_at = COALESCE(cart_attempted_at, ?) WHERE id = ?');
  const setCartAttempt = db.prepare<[number | null, number]>('UPDATE outbox SET cart_attempted_at = ? WHERE id = ?');
  const markSent = db.prepare<[number, number]>('UPDATE outbox SET sent_at = COALESCE(sent_at, ?) WHERE id = ?');
  const deliver = db.prepare<[string | null, number, number]>(
    "UPDATE outbox SET state = 'delivered', upstream_order_id = COALESCE(?, upstream_order_id), delivered_at = ?, last_error = NULL WHERE id = ?");
  const retryLater = db.prepare<[number, string, number]>('UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?');
  const conflict = db.prepare<[string, string, number, number]>(
    // In the inbox no earlier cart of the entry can still be pending: a staff retry starts clean.
    "UPDATE outbox SET state = 'conflict', conflict_code = ?, conflict_message = ?, conflict_at = ?, attempts = attempts + 1, cart_attempted_at = NULL, sent_at = NULL WHERE id = ?");
  const requeue = db.prepare<[number]>("UPDATE outbox SET state = 'pending', attempts = 0, next_attempt_at = 0, last_error = NULL WHERE id = ? AND state = 'conflict'");
  const resolve = db.prepare<[string, number]>("UPDATE outbox SET state = 'resolved', resolved_note = ? WHERE id = ? AND state = 'conflict'");
  const getState = db.prepare<[string], { value: string }>('SELECT value FROM sync_state WHERE name = ?');
  const putState = db.prepare<[string, string]>('INSERT INTO sync_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');

  // Told of every entry added (the sync worker, so that it need not poll): called inside the adding
  // transaction, so a listener only schedules work — it must not touch the database nor throw.
  const listeners = new Set<(kind: OutboxRow['kind']) => void>();

  return {
    add(kind: OutboxRow['kind'], orderId: string, now: number): void {
      insert.run(kind, orderId, randomUUID(), now);
      for (const listener of listeners) listener(kind);
    },
    /** calls `listener` for every entry added from now on; answers the function that stops it */
    onAdded(listener: (kind: OutboxRow['kind']) => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    next: () => next.get(),
    /** up to `limit` entries due at `now` that may go now, oldest first */
    ready: (now: number, limit: number) => ready.all(now, limit),
    /** when the earliest waiting entry is due (undefined: nothing waits) */
    nextDue: () => nextDue.get()?.at ?? undefined,
    /** when the oldest waiting entry was made (undefined: nothing waits) */
    oldestWaiting: () => oldest.get()?.createdAt,
    /** entries delivered after `since`, and when the first of them was */
    deliveredSince: (since: number) => deliveredSince.get(since) ?? { n: 0, first: null },
    get: (id: number) => byId.get(id),
    orderEntry: (orderId: string) => orderEntry.get(orderId),
    conflicts: () => conflicts.all(),
    waiting: () => waiting.get()?.n ?? 0,
    setUpstreamCart: (id: number, cartId: string | null) => void setCart.run(cartId, id),
    markCartAttempt: (id: number, now: number) => void markCartAttempt.run(now, id),
    /** when a POST /carts whose answer is unknown may last have made a cart upstream (null: none can have) */
    setCartAttempt: (id: number, at: number | null) => void setCartAttempt.run(at, id),
    markSent: (id: number, now: number) => void markSent.run(now, id),
    delivered: (id: number, upstreamOrderId: string | null, now: number) => void deliver.run(upstreamOrderId, now, id),
    retryLater: (id: number, at: number, error: string) => void retryLater.run(at, error.slice(0, 500), id),
    conflict: (id: number, code: string, message: string, now: number) => void conflict.run(code, message.slice(0, 500), now, id),
    requeue: (id: number) => requeue.run(id).changes > 0,
    resolve: (id: number, note: string) => resolve.run(note, id).changes > 0,
    state: (name: string) => getState.get(name)?.value,
    setState: (name: string, value: string) => void putState.run(name, value),
  };
}

export type OutboxRepo = ReturnType<typeof createOutboxRepo>;
