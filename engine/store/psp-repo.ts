import type { Db } from './db';

/** A 3-D Secure challenge of the simulated provider. */
export interface ChallengeRow {
  reference: string;
  amount: number;
  currency: string;
  outcome: 'pending' | 'approve' | 'reject';
  authenticationResult: string | null;
  shopperReference: string | null;
  usedBy: string | null;
  used: number;
}

export interface NewCharge { reference: string; amount: number; currency: string; token: string; createdAt: number }
export interface NewChallenge { reference: string; amount: number; currency: string; shopperReference: string; attemptReference: string; createdAt: number }

/**
 * The simulated payment provider's ledger (payments/simulator.ts, contract §7): its charges, the references
 * it was told are closed, and its 3-D Secure challenges — tables of its own, as a real provider keeps its
 * books on its side.
 */
export function createPspRepo(db: Db) {
  const chargeByRef = db.prepare<[string], { state: 'approved' | 'refunded' }>('SELECT state FROM psp_charges WHERE reference = ?');
  const recordCharge = db.prepare<[string, number, string, string, number]>(`INSERT OR IGNORE INTO psp_charges (reference, amount, currency, token, state, created_at)
    VALUES (?, ?, ?, ?, 'approved', ?)`);
  const refundCharge = db.prepare<[string]>("UPDATE psp_charges SET state = 'refunded' WHERE reference = ?");
  const isClosed = db.prepare<[string], { reference: string }>('SELECT reference FROM psp_closed_references WHERE reference = ?');
  const close = db.prepare<[string, number]>('INSERT OR IGNORE INTO psp_closed_references (reference, closed_at) VALUES (?, ?)');
  const insertChallenge = db.prepare<[string, number, string, string, string, number]>(`INSERT INTO psp_challenges (reference, amount, currency, outcome, shopper_reference, attempt_reference, created_at)
    VALUES (?, ?, ?, 'pending', ?, ?, ?)`);
  const CHALLENGE_COLUMNS = `reference, amount, currency, outcome, authentication_result AS authenticationResult,
    shopper_reference AS shopperReference, used_by AS usedBy, used`;
  const challengeByRef = db.prepare<[string], ChallengeRow>(`SELECT ${CHALLENGE_COLUMNS} FROM psp_challenges WHERE reference = ?`);
  const challengeByResult = db.prepare<[string], ChallengeRow>(`SELECT ${CHALLENGE_COLUMNS} FROM psp_challenges WHERE authentication_result = ?`);
  const decideChallenge = db.prepare<[string, string, string]>(
    "UPDATE psp_challenges SET outcome = ?, authentication_result = ? WHERE reference = ? AND outcome = 'pending'");
  const useChallenge = db.prepare<[string, string]>('UPDATE psp_challenges SET used = 1, used_by = ? WHERE reference = ?');
  return {
    chargeState: (reference: string): 'approved' | 'refunded' | undefined => chargeByRef.get(reference)?.state,
    /** records an approved charge (a second one for the reference is ignored) */
    recordCharge: (charge: NewCharge): void => void recordCharge.run(charge.reference, charge.amount, charge.currency, charge.token, charge.createdAt),
    refundCharge: (reference: string): void => void refundCharge.run(reference),
    isClosed: (reference: string): boolean => isClosed.get(reference) !== undefined,
    /** the engine was told "none" for this reference: a late charge is never taken */
    close: (reference: string, now: number): void => void close.run(reference, now),
    insertChallenge: (challenge: NewChallenge): void =>
      void insertChallenge.run(challenge.reference, challenge.amount, challenge.currency, challenge.shopperReference, challenge.attemptReference, challenge.createdAt),
    challenge: (reference: string): ChallengeRow | undefined => challengeByRef.get(reference),
    challengeByResult: (authenticationResult: string): ChallengeRow | undefined => challengeByResult.get(authenticationResult),
    /** decides a pending challenge (a decided one keeps its first decision) */
    decideChallenge: (reference: string, outcome: 'approve' | 'reject', authenticationResult: string): void =>
      void decideChallenge.run(outcome, authenticationResult, reference),
    useChallenge: (reference: string, usedBy: string): void => void useChallenge.run(usedBy, reference),
  };
}

export type PspRepo = ReturnType<typeof createPspRepo>;
