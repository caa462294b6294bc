import type { Db } from './db';

/**
 * The built-in simulated payment provider's own ledger (payments/simulator.ts; tables psp_charges,
 * psp_closed_references, psp_challenges): the SQL the simulator ran itself, moved into the store for issue #23.
 * The simulator keeps its transactions (one per decision); every method runs in the caller's transaction.
 */

export interface PspChallengeRow {
  reference: string;
  amount: number;
  currency: string;
  outcome: 'pending' | 'approve' | 'reject';
  authenticationResult: string | null;
  shopperReference: string | null;
  usedBy: string | null;
  used: number;
}

export interface PspChargeRecord {
  reference: string;
  amount: number;
  currency: string;
  token: string;
}

export interface PspChallengeRecord {
  reference: string;
  amount: number;
  currency: string;
  shopperReference: string | null;
  /** the attempt (charge reference) that raised it */
  attemptReference: string;
}

const CHALLENGE_COLUMNS = `reference, amount, currency, outcome, authentication_result AS authenticationResult,
  shopper_reference AS shopperReference, used_by AS usedBy, used`;

export function createPspRepo(db: Db) {
  const chargeByRef = db.prepare<[string], { state: 'approved' | 'refunded' }>('SELECT state FROM psp_charges WHERE reference = ?');
  const recordCharge = db.prepare<[string, number, string, string, number]>(`INSERT OR IGNORE INTO psp_charges (reference, amount, currency, token, state, created_at)
    VALUES (?, ?, ?, ?, 'approved', ?)`);
  const refundCharge = db.prepare<[string]>("UPDATE psp_charges SET state = 'refunded' WHERE reference = ?");
  const isClosed = db.prepare<[string], { reference: string }>('SELECT reference FROM psp_closed_references WHERE reference = ?');
  const close = db.prepare<[string, number]>('INSERT OR IGNORE INTO psp_closed_references (reference, closed_at) VALUES (?, ?)');
  const insertChallenge = db.prepare<[string, number, string, string | null, string, number]>(`INSERT INTO psp_challenges
    (reference, amount, currency, outcome, shopper_reference, attempt_reference, created_at) VALUES (?, ?, ?, 'pending', ?, ?, ?)`);
  const challengeByRef = db.prepare<[string], PspChallengeRow>(`SELECT ${CHALLENGE_COLUMNS} FROM psp_challenges WHERE reference = ?`);
  const challengeByResult = db.prepare<[string], PspChallengeRow>(`SELECT ${CHALLENGE_COLUMNS} FROM psp_challenges WHERE authentication_result = ?`);
  const decideChallenge = db.prepare<[string, string, string]>(
    "UPDATE psp_challenges SET outcome = ?, authentication_result = ? WHERE reference = ? AND outcome = 'pending'");
  const useChallenge = db.prepare<[string, string, string]>('UPDATE psp_challenges SET used = 1, used_by = ? WHERE reference = ? AND (used = 0 OR used_by = ?)');

  return {
    /**
     * Serialises the decisions about one charge reference until the transaction ends. A no-op here: a SQLite
     * write transaction (BEGIN IMMEDIATE) already runs alone. The PostgreSQL twin takes an advisory lock.
     */
    lockReference: (reference: string): void => void reference,
    /** the charge taken for a reference (undefined: none) */
    charge: (reference: string): { state: 'approved' | 'refunded' } | undefined => chargeByRef.get(reference),
    /** records an approved charge; a second one for the same reference is ignored */
    recordCharge: (charge: PspChargeRecord, now: number): void =>
      void recordCharge.run(charge.reference, charge.amount, charge.currency, charge.token, now),
    refundCharge: (reference: string): void => void refundCharge.run(reference),
    /** the engine was told "none" for this reference: a late charge for it is never taken */
    isClosed: (reference: string): boolean => isClosed.get(reference) !== undefined,
    close: (reference: string, now: number): void => void close.run(reference, now),
    insertChallenge: (challenge: PspChallengeRecord, now: number): void =>
      void insertChallenge.run(challenge.reference, challenge.amount, challenge.currency, challenge.shopperReference, challenge.attemptReference, now),
    challenge: (reference: string): PspChallengeRow | undefined => challengeByRef.get(reference),
    challengeByResult: (authenticationResult: string): PspChallengeRow | undefined => challengeByResult.get(authenticationResult),
    /** records a decision on a pending challenge (a decided one keeps its first decision) */
    decideChallenge: (reference: string, outcome: 'approve' | 'reject', authenticationResult: string): void =>
      void decideChallenge.run(outcome, authenticationResult, reference),
    /**
     * Spends a challenge's result for the charge `usedBy`: true when it was unspent or already spent by that same
     * charge, false when another charge spent it first.
     */
    useChallenge: (reference: string, usedBy: string): boolean => useChallenge.run(usedBy, reference, usedBy).changes > 0,
  };
}

export type PspRepo = ReturnType<typeof createPspRepo>;
