import type { Db } from './db';
import { nextAttemptState, type AttemptEvent, type AttemptState, type FailureOutcome, type PaymentMethod } from '../domain/payment-attempt';

/** Idempotency keys, payment attempts and voucher reservations of POST /orders. Runs in the caller's transaction. */

export const IDEMPOTENCY_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface IdempotencyRow {
  cartId: string;
  state: 'in_progress' | 'completed' | 'retired';
  status: number | null;
  body: string | null;
}

export interface AttemptRow {
  id: string;
  cartId: string;
  apiKeyId: string;
  idempotencyKey: string;
  method: PaymentMethod;
  amount: number;
  currency: string;
  request: string;
  /** JSON of the cart as priced when the attempt was made (null on attempts older than that column) */
  priced: string | null;
  state: AttemptState;
  /** why it failed (null unless failed) */
  outcome: FailureOutcome | null;
  orderId: string | null;
  createdAt: number;
  /** when its refund was confirmed (epoch ms; migration 0018), null unless refunded */
  refundedAt: number | null;
}

/** what a new attempt is made of (the rest is its state, set by its moves) */
export type NewAttempt = Omit<AttemptRow, 'state' | 'orderId' | 'outcome' | 'refundedAt'>;

const ATTEMPT_COLUMNS = `id, cart_id AS cartId, api_key_id AS apiKeyId, idempotency_key AS idempotencyKey, method, amount, currency,
  request, priced, state, outcome, order_id AS orderId, created_at AS createdAt, refunded_at AS refundedAt`;

export function createCheckoutRepo(db: Db) {
  const keyGet = db.prepare<[string, string, number], IdempotencyRow>(`SELECT cart_id AS cartId, state, status, body
    FROM idempotency_keys WHERE api_key_id = ? AND key = ? AND created_at > ?`);
  const keyBegin = db.prepare<[string, string, string, number]>(`INSERT OR REPLACE INTO idempotency_keys (api_key_id, key, cart_id, state, created_at)
    VALUES (?, ?, ?, 'in_progress', ?)`);
  const keyFinish = db.prepare<[string, number, string, string, string]>(
    'UPDATE idempotency_keys SET state = ?, status = ?, body = ? WHERE api_key_id = ? AND key = ?');
  const keyForget = db.prepare<[string, string]>('DELETE FROM idempotency_keys WHERE api_key_id = ? AND key = ?');
  const keyPurge = db.prepare<[number]>('DELETE FROM idempotency_keys WHERE created_at <= ?');
  const attemptInsert = db.prepare(`INSERT INTO payment_attempts (id, cart_id, api_key_id, idempotency_key, method, amount, currency, request, priced, state, created_at)
    VALUES (@id, @cartId, @apiKeyId, @idempotencyKey, @method, @amount, @currency, @request, @priced, 'pending', @createdAt)`);
  const attemptGet = db.prepare<[string], AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts WHERE id = ?`);
  const attemptPendingForCart = db.prepare<[string], AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts WHERE cart_id = ? AND state = 'pending'`);
  const attemptPendingForKey = db.prepare<[string, string], AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts
    WHERE api_key_id = ? AND idempotency_key = ? AND state = 'pending'`);
  const attemptsOpen = db.prepare<[], AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts
    WHERE state IN ('pending', 'refunding') ORDER BY created_at`);
  // a move ends the work its lease was for (migration 0017): the attempt in its new state is nobody's yet
  const attemptSet = db.prepare<[string, string | null, string | null, number | null, string, string]>(`UPDATE payment_attempts
    SET state = ?, order_id = COALESCE(?, order_id), outcome = COALESCE(?, outcome), refunded_at = COALESCE(?, refunded_at), lease_until = NULL
    WHERE id = ? AND state = ?`);
  const attemptClaim = db.prepare<[number, string, number]>(`UPDATE payment_attempts SET lease_until = ?
    WHERE id = ? AND state IN ('pending', 'refunding') AND (lease_until IS NULL OR lease_until <= ?)`);
  const attemptCharge = db.prepare<[string, number, string, string]>("UPDATE payment_attempts SET method = ?, amount = ?, request = ? WHERE id = ? AND state = 'pending'");
  const attemptRelease = db.prepare<[string]>("UPDATE payment_attempts SET lease_until = NULL WHERE id = ? AND state IN ('pending', 'refunding')");
  const riskDeclined = db.prepare<[string], { id: string }>(`SELECT id FROM payment_attempts
    WHERE cart_id = ? AND state = 'failed' AND outcome = 'risk_declined' LIMIT 1`);
  const attemptForOrder = db.prepare<[string], AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts WHERE order_id = ?`);
  const attemptsForOrders = db.prepare<[string], AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts
    WHERE order_id IN (SELECT value FROM json_each(?)) ORDER BY order_id`);
  const reserveVoucher = db.prepare<[string]>(`UPDATE vouchers SET redeemed = redeemed + 1
    WHERE code = ? AND (max_redemptions IS NULL OR redeemed < max_redemptions)`);
  const insertReservation = db.prepare<[string, string]>('INSERT INTO voucher_reservations (attempt_id, code) VALUES (?, ?)');
  const releaseVouchers = db.prepare<[string]>(`UPDATE vouchers SET redeemed = redeemed - 1
    WHERE code IN (SELECT code FROM voucher_reservations WHERE attempt_id = ?) AND redeemed > 0`);
  const dropReservations = db.prepare<[string]>('DELETE FROM voucher_reservations WHERE attempt_id = ?');

  return {
    key: (apiKeyId: string, key: string, now: number) => keyGet.get(apiKeyId, key, now - IDEMPOTENCY_LIFETIME_MS),
    beginKey: (apiKeyId: string, key: string, cartId: string, now: number) => void keyBegin.run(apiKeyId, key, cartId, now),
    finishKey: (apiKeyId: string, key: string, state: 'completed' | 'retired', status: number, body: unknown) =>
      void keyFinish.run(state, status, JSON.stringify(body), apiKeyId, key),
    /** the key was not used up: the same key may be sent again as if new */
    forgetKey: (apiKeyId: string, key: string) => void keyForget.run(apiKeyId, key),
    purgeKeys: (now: number) => keyPurge.run(now - IDEMPOTENCY_LIFETIME_MS).changes,
    insertAttempt: (attempt: NewAttempt) => void attemptInsert.run(attempt),
    attempt: (id: string) => attemptGet.get(id),
    pendingForCart: (cartId: string) => attemptPendingForCart.get(cartId),
    pendingForKey: (apiKeyId: string, key: string) => attemptPendingForKey.get(apiKeyId, key),
    /** attempts a crash or a lost answer left unsettled: payments pending, refunds not yet confirmed */
    openAttempts: () => attemptsOpen.all(),
    /**
     * Takes an open attempt's lease until `until` (contract §16): false when another request or sweep holds
     * it (its lease runs past `now`) or the attempt is settled. The one who holds it asks the provider.
     */
    claimAttempt: (id: string, now: number, until: number): boolean => attemptClaim.run(until, id, now).changes === 1,
    /** a pending attempt's charge, once what it charges is known (a terminal's gift-card parts, held at its hub) */
    setCharge: (id: string, charge: { method: PaymentMethod; amount: number; request: string }): boolean =>
      attemptCharge.run(charge.method, charge.amount, charge.request, id).changes === 1,
    /** gives an open attempt's lease up: a retry with its key, or a sweep, may take it over at once */
    releaseAttempt: (id: string) => void attemptRelease.run(id),
    /**
     * Moves an attempt through the payment lifecycle (engine/domain/payment-attempt): the only way its state
     * changes. Throws on a move the lifecycle does not have; returns the new state.
     */
    move(id: string, event: AttemptEvent, orderId?: string): AttemptState {
      const current = attemptGet.get(id);
      if (!current) throw new Error(`no payment attempt ${id}`);
      const to = nextAttemptState(current.state, event);
      attemptSet.run(to, orderId ?? null, event.type === 'failed' ? event.outcome : null, event.type === 'refund_confirmed' ? event.at : null, id, current.state);
      return to;
    },
    /** a risk decline ended this cart's checkout for every method */
    riskDeclined: (cartId: string) => riskDeclined.get(cartId) !== undefined,
    attemptForOrder: (orderId: string) => attemptForOrder.get(orderId),
    /** the attempts of several orders in one query (an order has at most one; an old database's may have none) */
    attemptsForOrders: (orderIds: readonly string[]) => attemptsForOrders.all(JSON.stringify(orderIds)),
    /** Counts one redemption of each code for the attempt; returns the first code already used up (the caller rolls back). */
    reserveVouchers(attemptId: string, codes: readonly string[]): string | undefined {
      for (const code of codes) {
        if (reserveVoucher.run(code).changes === 0) return code;
        insertReservation.run(attemptId, code);
      }
      return undefined;
    },
    releaseVouchers(attemptId: string): void {
      releaseVouchers.run(attemptId);
      dropReservations.run(attemptId);
    },
  };
}

export type CheckoutRepo = ReturnType<typeof createCheckoutRepo>;
