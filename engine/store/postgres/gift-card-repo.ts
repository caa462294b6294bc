import type { GiftCardEntryRow, GiftCardRepo, GiftCardState } from '../gift-card-repo';
import type { Async } from '../port-types';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/gift-card-repo.ts: gift cards and their ledger (migration 0019). A hold's balance check
 * and insert are one statement, run while the card's row is locked (Locks.giftCards, SELECT … FOR UPDATE in code
 * order), so two processes spending one card never both see the same balance. Runs in the caller's transaction.
 */

const CARD_COLUMNS = `g.code, g.order_id AS "orderId", g.currency, g.amount AS initial, g.status,
  g.amount + COALESCE((SELECT SUM(e.amount) FROM gift_card_entries e WHERE e.code = g.code), 0)::bigint AS balance`;
const ENTRY_COLUMNS = `id, code, kind, amount, state, attempt_id AS "attemptId", order_id AS "orderId", at, balance_after AS "balanceAfter"`;

export function createPgGiftCardRepo(q: Queryable): Async<GiftCardRepo> {
  const rows = async <R extends object>(sql: string, values: unknown[]): Promise<R[]> => (await q.query<R & Record<string, unknown>>(sql, values)).rows;
  const changes = async (sql: string, values: unknown[]): Promise<number> => (await q.query(sql, values)).rowCount ?? 0;

  return {
    cards: (codes) => rows<GiftCardState>(`SELECT ${CARD_COLUMNS} FROM gift_cards g WHERE g.code = ANY($1::text[]) ORDER BY g.code COLLATE "C"`, [[...codes]]),
    hold: async (code, amount, attemptId, at) => (await changes(`INSERT INTO gift_card_entries (code, kind, amount, state, attempt_id, at)
      SELECT g.code, 'redeem', -$2::bigint, 'held', $3, $4 FROM gift_cards g
      WHERE g.code = $1 AND g.status = 'active'
        AND g.amount + COALESCE((SELECT SUM(e.amount) FROM gift_card_entries e WHERE e.code = g.code), 0) >= $2::bigint`, [code, amount, attemptId, at])) === 1,
    ofAttempt: (attemptId) => rows<GiftCardEntryRow>(`SELECT ${ENTRY_COLUMNS} FROM gift_card_entries WHERE attempt_id = $1 AND kind = 'redeem' ORDER BY id`, [attemptId]),
    settle: (attemptId, orderId, at) => changes(`UPDATE gift_card_entries t SET state = 'settled', order_id = $1, at = $2,
        balance_after = (SELECT g.amount FROM gift_cards g WHERE g.code = t.code)
          + (SELECT COALESCE(SUM(s.amount), 0) FROM gift_card_entries s WHERE s.code = t.code AND (s.state = 'settled' OR s.attempt_id = t.attempt_id))::bigint
      WHERE t.attempt_id = $3 AND t.state = 'held'`, [orderId, at, attemptId]),
    adopt: (reference, attemptId) => changes("UPDATE gift_card_entries SET attempt_id = $1 WHERE attempt_id = $2 AND state = 'held'", [attemptId, reference]),
    release: (attemptId) => changes("DELETE FROM gift_card_entries WHERE attempt_id = $1 AND state = 'held'", [attemptId]),
    ofOrders: (orderIds) => rows<GiftCardEntryRow>(`SELECT ${ENTRY_COLUMNS} FROM gift_card_entries
      WHERE order_id = ANY($1::text[]) AND kind IN ('redeem', 'refund') ORDER BY id`, [[...orderIds]]),
    settled: (code) => rows<GiftCardEntryRow>(`SELECT ${ENTRY_COLUMNS} FROM gift_card_entries WHERE code = $1 AND state = 'settled' ORDER BY id`, [code]),
    async refundOrder(orderId, at) {
      const redeems = await rows<GiftCardEntryRow>(`SELECT ${ENTRY_COLUMNS} FROM gift_card_entries
        WHERE order_id = $1 AND kind = 'redeem' AND state = 'settled' ORDER BY id`, [orderId]);
      for (const entry of redeems) {
        await q.query(`INSERT INTO gift_card_entries (code, kind, amount, state, attempt_id, order_id, at, balance_after)
          SELECT e.code, 'refund', -e.amount, 'settled', e.attempt_id, e.order_id, $1,
            (SELECT g.amount FROM gift_cards g WHERE g.code = e.code)
            + (SELECT COALESCE(SUM(s.amount), 0) FROM gift_card_entries s WHERE s.code = e.code AND s.state = 'settled')::bigint - e.amount
          FROM gift_card_entries e WHERE e.id = $2`, [at, entry.id]);
      }
    },
    usedIssued: async (orderId) => (await rows<{ code: string }>(`SELECT g.code FROM gift_cards g
      WHERE g.order_id = $1 AND EXISTS (SELECT 1 FROM gift_card_entries e WHERE e.code = g.code AND e.kind = 'redeem')
      ORDER BY g.code COLLATE "C" LIMIT 1`, [orderId]))[0]?.code,
    voidIssued: (orderId, at) => changes(`INSERT INTO gift_card_entries (code, kind, amount, state, order_id, at, balance_after)
      SELECT g.code, 'void', -(g.amount + COALESCE((SELECT SUM(e.amount) FROM gift_card_entries e WHERE e.code = g.code), 0))::bigint, 'settled', g.order_id, $1, 0
      FROM gift_cards g WHERE g.order_id = $2 AND g.status = 'active' ORDER BY g.code COLLATE "C"`, [at, orderId]),
  };
}
