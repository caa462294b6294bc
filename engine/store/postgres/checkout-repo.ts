import { EngineError } from '../../domain/errors';
import { nextAttemptState, type AttemptEvent, type AttemptState, type PaymentMethod } from '../../domain/payment-attempt';
import { IDEMPOTENCY_LIFETIME_MS, type AttemptRow, type CheckoutRepo, type IdempotencyRow, type NewAttempt } from '../checkout-repo';
import type { Async } from '../port-types';
import { byKey } from './cart-stock';
import type { Queryable } from './queryable';

/** PostgreSQL twin of store/checkout-repo.ts: idempotency keys, payment attempts and voucher reservations. Runs in the caller's transaction. */

const ATTEMPT_COLUMNS = `id, cart_id AS "cartId", api_key_id AS "apiKeyId", idempotency_key AS "idempotencyKey", method, amount, currency,
  request, priced, state, outcome, order_id AS "orderId", created_at AS "createdAt", refunded_at AS "refundedAt"`;

export function createPgCheckoutRepo(q: Queryable): Async<CheckoutRepo> {
  const oneAttempt = async (sql: string, values: unknown[]): Promise<AttemptRow | undefined> => (await q.query<AttemptRow>(sql, values)).rows[0];

  return {
    async key(apiKeyId: string, key: string, now: number): Promise<IdempotencyRow | undefined> {
      const { rows } = await q.query<IdempotencyRow>(`SELECT cart_id AS "cartId", state, status, body
        FROM idempotency_keys WHERE api_key_id = $1 AND key = $2 AND created_at > $3`, [apiKeyId, key, now - IDEMPOTENCY_LIFETIME_MS]);
      return rows[0];
    },
    /**
     * Begins a key: a new row, or one replacing a row past its 24 hours (SQLite's INSERT OR REPLACE). Exactly one
     * of two processes beginning the same key at once succeeds: the second INSERT waits for the first one's row,
     * then finds it live and changes nothing, and answers IDEMPOTENCY_KEY_IN_PROGRESS (409, contract §16) so its
     * transaction — attempt, voucher reservations — rolls back.
     */
    async beginKey(apiKeyId: string, key: string, cartId: string, now: number): Promise<undefined> {
      const begun = await q.query(`INSERT INTO idempotency_keys (api_key_id, key, cart_id, state, created_at) VALUES ($1, $2, $3, 'in_progress', $4)
        ON CONFLICT (api_key_id, key) DO UPDATE SET cart_id = EXCLUDED.cart_id, state = 'in_progress', status = NULL, body = NULL,
          created_at = EXCLUDED.created_at
        WHERE idempotency_keys.created_at <= $5`, [apiKeyId, key, cartId, now, now - IDEMPOTENCY_LIFETIME_MS]);
      if (begun.rowCount !== 1) throw new EngineError('IDEMPOTENCY_KEY_IN_PROGRESS');
    },
    async finishKey(apiKeyId: string, key: string, state: 'completed' | 'retired', status: number, body: unknown): Promise<undefined> {
      await q.query('UPDATE idempotency_keys SET state = $1, status = $2, body = $3 WHERE api_key_id = $4 AND key = $5',
        [state, status, JSON.stringify(body), apiKeyId, key]);
    },
    /** the key was not used up: the same key may be sent again as if new */
    async forgetKey(apiKeyId: string, key: string): Promise<undefined> {
      await q.query('DELETE FROM idempotency_keys WHERE api_key_id = $1 AND key = $2', [apiKeyId, key]);
    },
    async purgeKeys(now: number): Promise<number> {
      return (await q.query('DELETE FROM idempotency_keys WHERE created_at <= $1', [now - IDEMPOTENCY_LIFETIME_MS])).rowCount ?? 0;
    },
    async insertAttempt(attempt: NewAttempt): Promise<undefined> {
      await q.query(`INSERT INTO payment_attempts (id, cart_id, api_key_id, idempotency_key, method, amount, currency, request, priced, state, created_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10)`,
      [attempt.id, attempt.cartId, attempt.apiKeyId, attempt.idempotencyKey, attempt.method, attempt.amount, attempt.currency,
        attempt.request, attempt.priced, attempt.createdAt]);
    },
    attempt: (id: string) => oneAttempt(`SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts WHERE id = $1`, [id]),
    pendingForCart: (cartId: string) => oneAttempt(`SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts WHERE cart_id = $1 AND state = 'pending'`, [cartId]),
    pendingForKey: (apiKeyId: string, key: string) => oneAttempt(`SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts
      WHERE api_key_id = $1 AND idempotency_key = $2 AND state = 'pending'`, [apiKeyId, key]),
    /** attempts a crash or a lost answer left unsettled: payments pending, refunds not yet confirmed */
    async openAttempts(): Promise<AttemptRow[]> {
      return (await q.query<AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts
        WHERE state IN ('pending', 'refunding') ORDER BY created_at`)).rows;
    },
    /**
     * Takes an open attempt's lease until `until` (contract §16; migration 0017): one conditional UPDATE, so of
     * two processes claiming one attempt at once exactly one gets it (the second waits for the first's row lock,
     * then reads its lease). false: another request or sweep holds it, or the attempt is settled.
     */
    async claimAttempt(id: string, now: number, until: number): Promise<boolean> {
      return (await q.query(`UPDATE payment_attempts SET lease_until = $1
        WHERE id = $2 AND state IN ('pending', 'refunding') AND (lease_until IS NULL OR lease_until <= $3)`, [until, id, now])).rowCount === 1;
    },
    /** a pending attempt's charge, once what it charges is known (a terminal's gift-card parts, held at its hub) */
    async setCharge(id: string, charge: { method: PaymentMethod; amount: number; request: string }): Promise<boolean> {
      return (await q.query("UPDATE payment_attempts SET method = $1, amount = $2, request = $3 WHERE id = $4 AND state = 'pending'",
        [charge.method, charge.amount, charge.request, id])).rowCount === 1;
    },
    /** gives an open attempt's lease up: a retry with its key, or a sweep, may take it over at once */
    async releaseAttempt(id: string): Promise<undefined> {
      await q.query("UPDATE payment_attempts SET lease_until = NULL WHERE id = $1 AND state IN ('pending', 'refunding')", [id]);
    },
    /**
     * Moves an attempt through the payment lifecycle; throws on a move the lifecycle does not have. The attempt's
     * row is locked (FOR UPDATE) before its state is read, so of two processes settling one attempt the second
     * waits, reads the state the first committed and throws (IllegalTransition): pending → settled happens once.
     * The UPDATE is conditional on the state read as well, and throws if it changed nothing.
     */
    async move(id: string, event: AttemptEvent, orderId?: string): Promise<AttemptState> {
      const { rows } = await q.query<{ state: AttemptState }>('SELECT state FROM payment_attempts WHERE id = $1 FOR UPDATE', [id]);
      const current = rows[0];
      if (!current) throw new Error(`no payment attempt ${id}`);
      const to = nextAttemptState(current.state, event);
      // a move ends the work its lease was for (migration 0017): the attempt in its new state is nobody's yet
      const moved = await q.query(`UPDATE payment_attempts SET state = $1, order_id = COALESCE($2, order_id), outcome = COALESCE($3, outcome),
        refunded_at = COALESCE($4, refunded_at), lease_until = NULL WHERE id = $5 AND state = $6`,
      [to, orderId ?? null, event.type === 'failed' ? event.outcome : null, event.type === 'refund_confirmed' ? event.at : null, id, current.state]);
      if (moved.rowCount !== 1) throw new Error(`payment attempt ${id} left state ${current.state} meanwhile`);
      return to;
    },
    /** a risk decline ended this cart's checkout for every method */
    async riskDeclined(cartId: string): Promise<boolean> {
      const { rows } = await q.query(`SELECT id FROM payment_attempts
        WHERE cart_id = $1 AND state = 'failed' AND outcome = 'risk_declined' LIMIT 1`, [cartId]);
      return rows.length > 0;
    },
    attemptForOrder: (orderId: string) => oneAttempt(`SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts WHERE order_id = $1`, [orderId]),
    /** the attempts of several orders in one query (an order has at most one; an old database's may have none) */
    async attemptsForOrders(orderIds: readonly string[]): Promise<AttemptRow[]> {
      return (await q.query<AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts WHERE order_id = ANY($1::text[]) ORDER BY order_id`,
        [[...orderIds]])).rows;
    },
    /**
     * Counts one redemption of each code for the attempt; returns the first code already used up (the caller rolls
     * back). Each count is a conditional UPDATE (`redeemed < max_redemptions`, re-checked by READ COMMITTED after
     * the row lock), so concurrent checkouts never redeem past the limit; several codes are locked first in key
     * order, so two checkouts with the same codes in another order cannot deadlock.
     */
    async reserveVouchers(attemptId: string, codes: readonly string[]): Promise<string | undefined> {
      if (codes.length > 1) {
        await q.query('SELECT 1 FROM vouchers WHERE code = ANY($1::text[]) ORDER BY code COLLATE "C" FOR UPDATE', [[...codes].sort(byKey)]);
      }
      for (const code of codes) {
        const counted = await q.query(`UPDATE vouchers SET redeemed = redeemed + 1
          WHERE code = $1 AND (max_redemptions IS NULL OR redeemed < max_redemptions)`, [code]);
        if (counted.rowCount === 0) return code;
        await q.query('INSERT INTO voucher_reservations (attempt_id, code) VALUES ($1, $2)', [attemptId, code]);
      }
      return undefined;
    },
    /**
     * Gives the attempt's redemptions back, once: the reservations are deleted first (RETURNING the codes), so of
     * two concurrent releases only the one whose DELETE removed the rows counts them back.
     */
    async releaseVouchers(attemptId: string): Promise<undefined> {
      await q.query(`WITH dropped AS (DELETE FROM voucher_reservations WHERE attempt_id = $1 RETURNING code),
        locked AS (SELECT v.code FROM vouchers v WHERE v.code IN (SELECT code FROM dropped) ORDER BY v.code COLLATE "C" FOR UPDATE)
        UPDATE vouchers v SET redeemed = v.redeemed - 1 FROM locked l WHERE v.code = l.code AND v.redeemed > 0`, [attemptId]);
    },
  };
}
