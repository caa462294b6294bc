import type { Db } from './db';

/**
 * Gift cards as money (issue #24, contract §13; migration 0019): a card (gift_cards, its initial amount) and its
 * ledger (gift_card_entries). The balance is the initial amount plus every entry, held or settled, so a hold of
 * a checkout in progress is already out of it. A hold is a conditional insert that checks the balance in the
 * same statement; the caller holds the card's lock (PostgreSQL: Locks.giftCards; SQLite: the one writer), so
 * concurrent spends never take a card below zero. Runs in the caller's transaction.
 */

export interface GiftCardState {
  code: string;
  /** the order that issued the card */
  orderId: string;
  currency: string;
  /** its value when issued, minor units */
  initial: number;
  status: 'active' | 'void';
  /** what can be spent now: initial plus every entry (held ones included) */
  balance: number;
}

export interface GiftCardEntryRow {
  id: number;
  code: string;
  kind: 'redeem' | 'refund' | 'void';
  /** signed minor units: redeem and void negative, refund positive */
  amount: number;
  state: 'held' | 'settled';
  attemptId: string | null;
  orderId: string | null;
  at: number;
  balanceAfter: number | null;
}

const CARD_COLUMNS = `g.code, g.order_id AS orderId, g.currency, g.amount AS initial, g.status,
  g.amount + COALESCE((SELECT SUM(e.amount) FROM gift_card_entries e WHERE e.code = g.code), 0) AS balance`;
const ENTRY_COLUMNS = `id, code, kind, amount, state, attempt_id AS attemptId, order_id AS orderId, at, balance_after AS balanceAfter`;
/** the card's settled balance counting `t`'s entries of attempt `t.attempt_id` as settled (their settlement) */
const SETTLED_BALANCE = (entry: string) => `(SELECT g.amount FROM gift_cards g WHERE g.code = ${entry}.code)
  + (SELECT COALESCE(SUM(s.amount), 0) FROM gift_card_entries s WHERE s.code = ${entry}.code
     AND (s.state = 'settled' OR s.attempt_id = ${entry}.attempt_id))`;

export function createGiftCardRepo(db: Db) {
  const cards = db.prepare<[string], GiftCardState>(`SELECT ${CARD_COLUMNS} FROM gift_cards g
    WHERE g.code IN (SELECT value FROM json_each(?)) ORDER BY g.code`);
  const hold = db.prepare<[{ code: string; amount: number; attemptId: string; at: number }]>(`INSERT INTO gift_card_entries (code, kind, amount, state, attempt_id, at)
    SELECT g.code, 'redeem', -@amount, 'held', @attemptId, @at FROM gift_cards g
    WHERE g.code = @code AND g.status = 'active'
      AND g.amount + COALESCE((SELECT SUM(e.amount) FROM gift_card_entries e WHERE e.code = g.code), 0) >= @amount`);
  const ofAttempt = db.prepare<[string], GiftCardEntryRow>(`SELECT ${ENTRY_COLUMNS} FROM gift_card_entries WHERE attempt_id = ? AND kind = 'redeem' ORDER BY id`);
  const settle = db.prepare<[string, number, string]>(`UPDATE gift_card_entries SET state = 'settled', order_id = ?, at = ?,
      balance_after = ${SETTLED_BALANCE('gift_card_entries')}
    WHERE attempt_id = ? AND state = 'held'`);
  const adopt = db.prepare<[string, string]>("UPDATE gift_card_entries SET attempt_id = ? WHERE attempt_id = ? AND state = 'held'");
  const release = db.prepare<[string]>("DELETE FROM gift_card_entries WHERE attempt_id = ? AND state = 'held'");
  const ofOrders = db.prepare<[string], GiftCardEntryRow>(`SELECT ${ENTRY_COLUMNS} FROM gift_card_entries
    WHERE order_id IN (SELECT value FROM json_each(?)) AND kind IN ('redeem', 'refund') ORDER BY id`);
  const settledOf = db.prepare<[string], GiftCardEntryRow>(`SELECT ${ENTRY_COLUMNS} FROM gift_card_entries WHERE code = ? AND state = 'settled' ORDER BY id`);
  const redeemsOf = db.prepare<[string], GiftCardEntryRow>(`SELECT ${ENTRY_COLUMNS} FROM gift_card_entries
    WHERE order_id = ? AND kind = 'redeem' AND state = 'settled' ORDER BY id`);
  // the refund's balance_after: the card's settled balance with the refund in it
  const refund = db.prepare<[{ at: number; id: number }]>(`INSERT INTO gift_card_entries (code, kind, amount, state, attempt_id, order_id, at, balance_after)
    SELECT e.code, 'refund', -e.amount, 'settled', e.attempt_id, e.order_id, @at,
      (SELECT g.amount FROM gift_cards g WHERE g.code = e.code)
      + (SELECT COALESCE(SUM(s.amount), 0) FROM gift_card_entries s WHERE s.code = e.code AND s.state = 'settled') - e.amount
    FROM gift_card_entries e WHERE e.id = @id`);
  const used = db.prepare<[string], { code: string }>(`SELECT g.code FROM gift_cards g
    WHERE g.order_id = ? AND EXISTS (SELECT 1 FROM gift_card_entries e WHERE e.code = g.code AND e.kind = 'redeem') ORDER BY g.code LIMIT 1`);
  const voidCards = db.prepare<[number, string]>(`INSERT INTO gift_card_entries (code, kind, amount, state, order_id, at, balance_after)
    SELECT g.code, 'void', -(g.amount + COALESCE((SELECT SUM(e.amount) FROM gift_card_entries e WHERE e.code = g.code), 0)), 'settled', g.order_id, ?, 0
    FROM gift_cards g WHERE g.order_id = ? AND g.status = 'active' ORDER BY g.code`);

  return {
    /** the cards of these codes (exact, normalized codes), by code */
    cards: (codes: readonly string[]) => cards.all(JSON.stringify(codes)),
    /** Holds `amount` (> 0) of the card for `attemptId` if it is active and its balance allows: true when held. */
    hold: (code: string, amount: number, attemptId: string, at: number): boolean => hold.run({ code, amount, attemptId, at }).changes === 1,
    /** the redeem entries of an attempt (a hub: of a terminal's hold reference), held or settled, in the order taken */
    ofAttempt: (attemptId: string) => ofAttempt.all(attemptId),
    /** The attempt's holds become settled redemptions of `orderId`, each with the card's balance right after it. */
    settle: (attemptId: string, orderId: string, at: number) => settle.run(orderId, at, attemptId).changes,
    /** holds taken under `reference` (a terminal's) move to the attempt `attemptId` (the hub's import of its order) */
    adopt: (reference: string, attemptId: string) => adopt.run(attemptId, reference).changes,
    /** drops the attempt's holds (it failed): the amounts are back on the cards */
    release: (attemptId: string) => release.run(attemptId).changes,
    /** the redeem and refund entries of several orders (their payments' gift-card parts), in the order written */
    ofOrders: (orderIds: readonly string[]) => ofOrders.all(JSON.stringify(orderIds)),
    /** a card's settled entries, oldest first (GET /gift-cards/{code}) */
    settled: (code: string) => settledOf.all(code),
    /** Puts each card part of a cancelled order back on its card: a settled refund entry per redemption. */
    refundOrder(orderId: string, at: number): void {
      for (const entry of redeemsOf.all(orderId)) refund.run({ at, id: entry.id });
    },
    /** the first card issued by the order that was ever spent (a redeem entry, held or settled), if any */
    usedIssued: (orderId: string): string | undefined => used.get(orderId)?.code,
    /** A settled void entry of the rest of each active card the order issued (its status is set by orders.cancel). */
    voidIssued: (orderId: string, at: number) => voidCards.run(at, orderId).changes,
  };
}

export type GiftCardRepo = ReturnType<typeof createGiftCardRepo>;
