import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../store/db';
import { immediate } from '../store/db';
import type { CardCharge, ChargeOutcome, PaymentProvider } from './provider';

/**
 * The built-in simulated provider (contract §7). Its ledger lives in tables of its own (psp_*), written in
 * its own transactions, as a real provider's would live on its side. `tok_3ds` asks for a 3-D Secure
 * challenge whose page a person (or POST /psp/challenges/{reference}) approves or rejects.
 */

export const TEST_TOKENS = ['tok_visa', 'tok_3ds', 'tok_declined', 'tok_risk', 'tok_provider_down'] as const;

export interface SimulatorOptions {
  /** where the challenge pages are served, known once the engine listens */
  readonly baseUrl: () => string;
  /** simulated network latency of the provider's answer, after the charge is recorded (tests use it) */
  readonly answerDelayMs?: number;
  readonly now: () => number;
}

interface ChallengeRow { reference: string; amount: number; currency: string; outcome: 'pending' | 'approve' | 'reject'; authenticationResult: string | null; used: number }

export type ChallengeOutcome = 'approve' | 'reject';

export function createSimulator(db: Db, options: SimulatorOptions) {
  const chargeByRef = db.prepare<[string], { state: 'approved' | 'refunded' }>('SELECT state FROM psp_charges WHERE reference = ?');
  const recordCharge = db.prepare(`INSERT OR IGNORE INTO psp_charges (reference, amount, currency, token, state, created_at)
    VALUES (?, ?, ?, ?, 'approved', ?)`);
  const refundCharge = db.prepare<[string]>("UPDATE psp_charges SET state = 'refunded' WHERE reference = ?");
  const insertChallenge = db.prepare('INSERT INTO psp_challenges (reference, amount, currency, outcome, created_at) VALUES (?, ?, ?, ?, ?)');
  const challengeByRef = db.prepare<[string], ChallengeRow>(`SELECT reference, amount, currency, outcome,
    authentication_result AS authenticationResult, used FROM psp_challenges WHERE reference = ?`);
  const challengeByResult = db.prepare<[string], ChallengeRow>(`SELECT reference, amount, currency, outcome,
    authentication_result AS authenticationResult, used FROM psp_challenges WHERE authentication_result = ?`);
  const decideChallenge = db.prepare<[string, string, string]>(
    "UPDATE psp_challenges SET outcome = ?, authentication_result = ? WHERE reference = ? AND outcome = 'pending'");
  const useChallenge = db.prepare<[string]>('UPDATE psp_challenges SET used = 1 WHERE reference = ?');

  const token = (prefix: string) => `${prefix}_${randomBytes(16).toString('base64url')}`;

  function decide(request: CardCharge): ChargeOutcome {
    return immediate(db, (): ChargeOutcome => {
      if (chargeByRef.get(request.reference)) return { status: 'approved' };
      const approve = (): ChargeOutcome => {
        recordCharge.run(request.reference, request.amount.amount, request.amount.currency, request.token, options.now());
        return { status: 'approved' };
      };
      if (request.authenticationResult !== undefined) {
        const challenge = challengeByResult.get(request.authenticationResult);
        const valid = challenge && challenge.outcome === 'approve' && challenge.used === 0
          && challenge.amount === request.amount.amount && challenge.currency === request.amount.currency;
        if (!valid) return { status: 'declined' };
        useChallenge.run(challenge.reference);
        return approve();
      }
      switch (request.token) {
        case 'tok_visa':
          return approve();
        case 'tok_3ds': {
          const reference = token('chl');
          insertChallenge.run(reference, request.amount.amount, request.amount.currency, 'pending', options.now());
          const challengeUrl = `${options.baseUrl()}/psp/challenges/${reference}`;
          return { status: 'action_required', action: JSON.stringify({ type: 'threeDS2Challenge', challengeUrl, reference }) };
        }
        case 'tok_risk':
          return { status: 'risk_declined' };
        case 'tok_provider_down':
          return { status: 'unavailable' };
        default:
          return { status: 'declined' };
      }
    });
  }

  const provider: PaymentProvider = {
    testTokens: TEST_TOKENS,
    async charge(request) {
      const outcome = decide(request);
      if (options.answerDelayMs) await sleep(options.answerDelayMs);
      return outcome;
    },
    async status(reference) {
      return chargeByRef.get(reference)?.state ?? 'none';
    },
    async refund(reference) {
      refundCharge.run(reference);
    },
  };

  return {
    provider,
    challenge: (reference: string): ChallengeRow | undefined => challengeByRef.get(reference),
    /** Records a person's (or a test's) decision; deciding again returns the first decision's result. */
    completeChallenge(reference: string, outcome: ChallengeOutcome): { authenticationResult: string; outcome: ChallengeOutcome } | undefined {
      return immediate(db, () => {
        decideChallenge.run(outcome, token('auth'), reference);
        const row = challengeByRef.get(reference);
        if (!row || row.outcome === 'pending' || row.authenticationResult === null) return undefined;
        return { authenticationResult: row.authenticationResult, outcome: row.outcome };
      });
    },
  };
}

export type Simulator = ReturnType<typeof createSimulator>;
